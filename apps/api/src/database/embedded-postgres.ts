import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { ConfigError } from '../config/config';
import { START_RESERVE_BYTES, freeBytes, megabytes } from './disk-space';
import { closeToOthers, createSocketDir, ownerOnlyDataDir, removeStaleSocketDirs } from './embedded-files';
import { OwnerLock, lockDataDir, runningOwner } from './embedded-owner';

export interface EmbeddedPostgres {
  /** A postgres:// URL the app connects to with pg, exactly as to a server. */
  url: string;
  /** What the start found and corrected (stale owner file, open permissions, leftover sockets): for the log. */
  notices: string[];
  stop(): Promise<void>;
}

/** The socket is named as PostgreSQL's would be for this port: pg finds it from the directory and port. */
const SOCKET_PORT = 5432;

/**
 * PostgreSQL's default 128 MB of shared buffers live in the WebAssembly heap, all of it resident once
 * touched; 16 MB hold this service's working set (a few tables and their indexes) many times over.
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/** Opens (creating it when new) the PGlite database in `dataDir`, with the service's settings. */
export function createEmbeddedDatabase(dataDir: string): Promise<PGlite> {
  return PGlite.create(dataDir, { startParams: START_PARAMS });
}

/** The first start of a folder runs initdb in a child process (see bin/embedded-initdb.ts), so this one never holds both heaps. */
function initialiseInChild(dataDir: string): void {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  const script = join(__dirname, '..', 'bin', 'embedded-initdb.js');
  const child = spawnSync(process.execPath, [script, dataDir], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`Could not create the embedded PostgreSQL in ${dataDir}: ${child.stderr || child.error?.message}`);
}

/**
 * Starts PGlite (PostgreSQL compiled to WebAssembly) and serves it over the PostgreSQL wire protocol
 * on a private Unix socket, so the app speaks to it through pg and TypeORM like to any server.
 * `dataDir` is a folder, or `memory://` for a database that lives only as long as the process.
 * The folder is taken (embedded-owner.ts) before the database opens, and made owner-only.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const notices: string[] = [];
  const notice = (message: string) => notices.push(message);
  const inMemory = dataDir.startsWith('memory://');
  const removed = removeStaleSocketDirs();
  if (removed > 0) notice(`removed ${removed} socket folder(s) of embedded PostgreSQL processes that are gone from ${tmpdir()}`);
  let lock: OwnerLock | undefined;
  if (!inMemory) {
    ownerOnlyDataDir(dataDir, notice);
    assertRoomToStart(dataDir);
    lock = lockDataDir(dataDir, notice);
  }
  try {
    if (!inMemory) initialiseInChild(dataDir);
    const db = await createEmbeddedDatabase(dataDir);
    if (!inMemory) closeToOthers(dataDir);
    // Served on a Unix socket in a directory only this user may enter: PGlite has no passwords, and a
    // loopback TCP port would let any local user read api_keys or add a key of their own.
    const socketDir = createSocketDir();
    // PGlite runs one query at a time; the socket server queues the connections' queries.
    const server = new PGLiteSocketServer({ db, path: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`), maxConnections: 8 });
    await server.start();
    const url = `postgres://postgres@localhost:${SOCKET_PORT}/postgres?host=${encodeURIComponent(socketDir)}&sslmode=disable`;
    lock?.serving(url);
    return {
      url,
      notices,
      async stop() {
        lock?.release();
        await server.stop();
        await db.close();
        rmSync(socketDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

/** Refuses, saying why, a start that PGlite would fail with no more than "PGlite failed to initialize properly". */
function assertRoomToStart(dataDir: string): void {
  const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
  const needed = fresh ? START_RESERVE_BYTES.fresh : START_RESERVE_BYTES.existing;
  const free = freeBytes(dataDir);
  if (free >= needed) return;
  const what = fresh ? 'to create its files (about 40 MB) and keep its reserve' : 'to open (a WAL segment) and keep its reserve';
  throw new ConfigError([`DATA_DIR ${dataDir} has ${megabytes(free)} free: the embedded PostgreSQL needs ${megabytes(needed)} ${what}`]);
}

/** The process serving the embedded PostgreSQL in `dataDir`, and its URL, when one is running. */
export function runningEmbeddedPostgres(dataDir: string): { pid: number; url: string } | undefined {
  return runningOwner(dataDir);
}
