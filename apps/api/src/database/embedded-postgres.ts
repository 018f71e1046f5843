import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { DatabaseUnusableError } from './database-check';
import { DataDirLock, LOCK_FILES, lockDataDir } from './embedded-lock';

const SOCKET_PORT = 5432; // named as PostgreSQL's socket: pg finds it from the directory and port
const INITDB_DIR = '.initdb'; // a first start's database, moved into DATA_DIR once whole
const ESSENTIAL = ['global/pg_control', 'base', 'pg_wal', 'PG_VERSION'];
/** Opening writes a WAL segment (16 MB), a new database ~40 MB more: PGlite hangs instead of failing without them. */
const MIN_FREE_BYTES = { existing: 24 * 1024 * 1024, fresh: 64 * 1024 * 1024 };

/** Opens (creating it when new) the PGlite database in `dataDir`: 16 MB of shared buffers (the default 128 MB stay resident). */
export function createEmbeddedDatabase(dataDir: string): Promise<PGlite> {
  return PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] });
}

/** Serves PGlite over the wire protocol on a private Unix socket; `dataDir` (owner-only and locked first) or `memory://`. */
export async function startEmbeddedPostgres(dataDir: string) {
  const notices: string[] = [];
  const inMemory = dataDir.startsWith('memory://');
  let lock: DataDirLock | undefined;
  try {
    if (!inMemory) {
      ownerOnlyDataDir(dataDir, (notice) => notices.push(notice));
      lock = await lockDataDir(dataDir);
      await prepareDataDir(dataDir);
    }
    const db = await createEmbeddedDatabase(dataDir);
    if (!inMemory) closeToOthers(dataDir);
    // PGlite has no passwords: a socket in an owner-only directory (not DATA_DIR: a socket path stays under ~100 bytes), no loopback port.
    const socketDir = mkdtempSync(join(tmpdir(), 'petstore-pg-'));
    // PGlite runs one query at a time; the socket server queues the connections' queries.
    const server = new PGLiteSocketServer({ db, path: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`), maxConnections: 8 });
    await server.start();
    const url = `postgres://postgres@localhost:${SOCKET_PORT}/postgres?host=${encodeURIComponent(socketDir)}&sslmode=disable`;
    lock?.serving(url);
    return {
      url, // what pg connects to, as to a server
      notices, // what the start corrected (open permissions), for the log
      async stop() {
        await server.stop();
        await db.close();
        rmSync(socketDir, { recursive: true, force: true });
        await lock?.release();
      },
    };
  } catch (error) {
    await lock?.release().catch(() => undefined);
    if (inMemory || error instanceof DatabaseUnusableError) throw error;
    throw new DatabaseUnusableError(`DATA_DIR ${dataDir} cannot be used by the embedded PostgreSQL: ${reason(dataDir, error)}`);
  }
}

/** Refuses a folder neither empty nor a whole data folder, or on a full disk; creates the database in an empty one. */
async function prepareDataDir(dataDir: string): Promise<void> {
  const entries = readdirSync(dataDir).filter((name) => !LOCK_FILES.includes(name) && name !== INITDB_DIR);
  const missing = ESSENTIAL.filter((path) => !existsSync(join(dataDir, path)));
  if (entries.length > 0 && missing.length > 0)
    throw new DatabaseUnusableError(
      `DATA_DIR ${dataDir} is not empty but is not a whole embedded PostgreSQL data folder (missing ${missing.join(', ')}): ` +
        'refusing to create a database over it. Restore the folder, or point DATA_DIR at an empty or new one',
    );
  const needed = entries.length === 0 ? MIN_FREE_BYTES.fresh : MIN_FREE_BYTES.existing;
  const free = freeBytes(dataDir);
  if (free < needed)
    throw new DatabaseUnusableError(
      `DATA_DIR ${dataDir} is full: ${megabytes(free)} free, the embedded PostgreSQL needs ${megabytes(needed)} to start`,
    );
  if (entries.length === 0) await initialise(dataDir);
}

/** Creates the database in a child process (never both of initdb's heaps here), then moves it in, PG_VERSION last. */
async function initialise(dataDir: string): Promise<void> {
  const target = join(dataDir, INITDB_DIR);
  rmSync(target, { recursive: true, force: true });
  const script = join(__dirname, '..', 'bin', 'embedded-initdb.js');
  // Not spawnSync: the lock's refresh must keep running meanwhile.
  const child = spawn(process.execPath, [script, target], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`could not create the database (${lastLine(stderr)})`);
  const names = readdirSync(target).sort((a, b) => Number(a === 'PG_VERSION') - Number(b === 'PG_VERSION'));
  for (const name of names) renameSync(join(target, name), join(dataDir, name));
  rmSync(target, { recursive: true, force: true });
}

function reason(dataDir: string, error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const left = freeBytes(dataDir);
  const free = left < MIN_FREE_BYTES.existing ? `; the disk is full (${megabytes(left)} free)` : '';
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return `it is not writable (${code})${free}`;
  if (code === 'ENOSPC') return `the disk is full (${code})`;
  if (code === 'ENOENT' || code === 'ENOTDIR') return `it cannot be created (${code})`;
  // PGlite's WebAssembly abort says only "Aborted(). Build with -sASSERTIONS for more info."
  const said = lastLine((message ?? String(error)).split('\n')[0].replace(/\. Build with .*$/, ''));
  return `it fails to open (${said})${free}. Is the folder damaged? Restore it, or point DATA_DIR at a new one`;
}

const lastLine = (text: string): string => text.trim().split('\n').filter(Boolean).pop()?.slice(0, 300) ?? '';
const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function freeBytes(path: string): number {
  try {
    const { bavail, bsize } = statfsSync(path);
    return bavail * bsize;
  } catch {
    return Infinity;
  }
}

/** The files hold key digests and every pet: owner-only like a server's data directory (the initdb child inherits it). */
export const OWNER_ONLY_UMASK = 0o077;

function ownerOnlyDataDir(dataDir: string, notice: (message: string) => void): void {
  process.umask(OWNER_ONLY_UMASK);
  makeDirectory(dataDir);
  const mode = statSync(dataDir).mode & 0o777;
  let opened: number;
  try {
    if (mode & 0o077) chmodSync(dataDir, 0o700);
    opened = closeToOthers(dataDir);
  } catch (error) {
    throw new DatabaseUnusableError(`DATA_DIR ${dataDir} is open to other users and cannot be made owner-only: ${(error as Error).message}`);
  }
  if (mode & 0o077 || opened > 0) {
    notice(
      `DATA_DIR ${dataDir} was open to other users (folder ${mode.toString(8).padStart(4, '0')}, ${opened} entries inside with group or other permissions): made owner-only`,
    );
  }
}

/** `mkdir -p`, a level at a time: Node's recursive mkdir spins forever where a parent exists but takes no child (/proc). */
function makeDirectory(dir: string, parentMade = false): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'EEXIST') return; // a twin start may have made it meanwhile
    if (code !== 'ENOENT' || parentMade || dirname(dir) === dir) throw error;
    makeDirectory(dirname(dir));
    makeDirectory(dir, true);
  }
}

/** Takes group and other permissions off everything under `dir` (PGlite unpacks a new database 0666/0777); returns how many had some. */
function closeToOthers(dir: string): number {
  let opened = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const path = join(entry.parentPath, entry.name);
    const mode = lstatSync(path).mode & 0o777;
    if (mode & 0o077) {
      chmodSync(path, mode & 0o700);
      opened++;
    }
  }
  return opened;
}
