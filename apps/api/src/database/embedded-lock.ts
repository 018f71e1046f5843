import { accessSync, constants, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, lock } from 'proper-lockfile';
import { DatabaseUnusableError } from './database-check';

const LOCK = 'embedded-postgres.lock';
/** Who holds the lock and, once it serves, at which URL (the key tool connects there). */
const OWNER = 'embedded-postgres.json';
// A killed process's lock goes stale (a start waits for it); refreshed often, as opening PGlite blocks this thread for seconds.
const STALE_MS = 20_000;
const UPDATE_MS = 2_000;
const options = (dataDir: string) => ({ realpath: false, stale: STALE_MS, lockfilePath: join(dataDir, LOCK) });

export const LOCK_FILES = [LOCK, OWNER];

type Owner = { pid: number; url?: string };

export interface DataDirLock {
  serving(url: string): void;
  release(): Promise<void>;
}

/**
 * One process per DATA_DIR: otherwise a one-line DatabaseUnusableError naming the process that serves it, at once while
 * that process runs. The lock of one that was killed goes stale STALE_MS after its last refresh: the start waits, saying so.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  accessSync(dataDir, constants.W_OK); // a read-only folder is refused now: the lock's retries would wait 22 s to say so
  const take = (retries: number) =>
    lock(dataDir, {
      ...options(dataDir),
      update: UPDATE_MS,
      retries: { retries, factor: 1, minTimeout: 1000, maxTimeout: 1000 },
      // Another process took the lock while this one could not refresh it: stop before both write.
      onCompromised: (error) => {
        console.error(`DATA_DIR ${dataDir}: the embedded PostgreSQL lost its lock (${error.message}): stopping`);
        process.exit(1);
      },
    });
  const inUse = (error: NodeJS.ErrnoException): never => {
    if (error.code !== 'ELOCKED') throw error;
    const pid = readOwner(dataDir)?.pid;
    throw new DatabaseUnusableError(`DATA_DIR ${dataDir} is in use: process ${pid ?? '(unknown)'} already serves its embedded PostgreSQL`);
  };
  const release = await take(0).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ELOCKED') throw error;
    // No owner written yet (a process starting this instant): the retries tell.
    const pid = readOwner(dataDir)?.pid;
    if (pid !== undefined && isRunning(pid)) inUse(error);
    if (pid !== undefined)
      console.error(
        `DATA_DIR ${dataDir}: process ${pid}, which held it, is not running: waiting up to ${STALE_MS / 1000} s for its lock to go stale`,
      );
    return take(STALE_MS / 1000 + 2).catch(inUse);
  });
  const write = (owner: Owner) => writeFileSync(join(dataDir, OWNER), JSON.stringify(owner), { mode: 0o600 });
  write({ pid: process.pid });
  return {
    serving: (url) => write({ pid: process.pid, url }),
    release: async () => {
      rmSync(join(dataDir, OWNER), { force: true });
      await release();
    },
  };
}

/** The embedded PostgreSQL another live process serves from `dataDir`, if any. */
export async function runningEmbeddedPostgres(dataDir: string): Promise<Required<Owner> | undefined> {
  const owner = readOwner(dataDir);
  if (!owner?.url || !(await check(dataDir, options(dataDir)).catch(() => false))) return undefined;
  return owner as Required<Owner>;
}

/**
 * Signal 0 only asks: EPERM is a process of another user. Our own pid is a killed predecessor's (a restarted container);
 * a process in another PID namespace looks stopped: the lock's freshness decides then.
 */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(dataDir: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, OWNER), 'utf8')) as Owner;
  } catch {
    return undefined;
  }
}
