import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { ConfigError } from '../config/config';

export interface EmbeddedPostgres {
  /** A postgres:// URL the app connects to with pg, exactly as to a server. */
  url: string;
  stop(): Promise<void>;
}

/** The socket is named as PostgreSQL's would be for this port: pg finds it from the directory and port. */
const SOCKET_PORT = 5432;

/** Written into DATA_DIR while a process serves it: PGlite files can be opened by one process only. */
const OWNER_FILE = 'embedded-postgres.json';

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
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) {
    mkdirSync(dataDir, { recursive: true });
    const owner = runningEmbeddedPostgres(dataDir);
    if (owner) throw new ConfigError([`DATA_DIR ${dataDir} is in use: process ${owner.pid} already serves its embedded PostgreSQL`]);
  }
  if (!inMemory) initialiseInChild(dataDir);
  const db = await createEmbeddedDatabase(dataDir);
  // Served on a Unix socket in a directory only this user may enter: PGlite has no passwords, and a
  // loopback TCP port would let any local user read api_keys or add a key of their own. (A temporary
  // directory, not DATA_DIR: a socket path must stay under about 100 bytes.)
  const socketDir = mkdtempSync(join(tmpdir(), 'petstore-pg-'));
  // PGlite runs one query at a time; the socket server queues the connections' queries.
  const server = new PGLiteSocketServer({ db, path: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`), maxConnections: 8 });
  await server.start();
  const url = `postgres://postgres@localhost:${SOCKET_PORT}/postgres?host=${encodeURIComponent(socketDir)}&sslmode=disable`;
  if (!inMemory) writeFileSync(join(dataDir, OWNER_FILE), JSON.stringify({ pid: process.pid, url }));
  return {
    url,
    async stop() {
      if (!inMemory) rmSync(join(dataDir, OWNER_FILE), { force: true });
      await server.stop();
      await db.close();
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

/** The process serving the embedded PostgreSQL in `dataDir`, and its URL, when one is running. */
export function runningEmbeddedPostgres(dataDir: string): { pid: number; url: string } | undefined {
  let owner: { pid: number; url: string };
  try {
    owner = JSON.parse(readFileSync(join(dataDir, OWNER_FILE), 'utf8')) as { pid: number; url: string };
  } catch {
    return undefined;
  }
  try {
    process.kill(owner.pid, 0);
    return owner;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else. Anything else: a stale file.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? owner : undefined;
  }
}
