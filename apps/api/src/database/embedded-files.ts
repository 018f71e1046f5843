import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config/config';

/**
 * The embedded PostgreSQL's files hold API key digests and every pet, and postgresql.auto.conf is read
 * at start: owner-only, like a PostgreSQL server's data directory. The umask covers what PostgreSQL and
 * the initdb child (which inherits it) create from now on.
 */
export const OWNER_ONLY_UMASK = 0o077;

/** Creates `dataDir` owner-only, or makes an existing one so; `notice` says what it corrected. */
export function ownerOnlyDataDir(dataDir: string, notice: (message: string) => void): void {
  process.umask(OWNER_ONLY_UMASK);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const mode = statSync(dataDir).mode & 0o777;
  let opened: number;
  try {
    if (mode & 0o077) chmodSync(dataDir, 0o700);
    opened = closeToOthers(dataDir);
  } catch (error) {
    throw new ConfigError([`DATA_DIR ${dataDir} is open to other users and cannot be made owner-only: ${(error as Error).message}`]);
  }
  if (mode & 0o077 || opened > 0) {
    notice(
      `DATA_DIR ${dataDir} was open to other users (folder ${mode.toString(8).padStart(4, '0')}, ${opened} entries inside with group or other permissions): made owner-only`,
    );
  }
}

/**
 * Takes the group and other permissions off everything under `dir`; returns how many entries had some.
 * Also run after PGlite opens a folder: it writes the files of a new database (from an archive) with
 * the archive's modes, 0666 and 0777, whatever the umask.
 */
export function closeToOthers(dir: string): number {
  let opened = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    const mode = lstatSync(path).mode & 0o777;
    if (mode & 0o077) {
      chmodSync(path, mode & 0o700);
      opened++;
    }
    if (entry.isDirectory()) opened += closeToOthers(path);
  }
  return opened;
}

const SOCKET_DIR_PREFIX = 'petstore-pg-';

/**
 * A directory for the socket (not DATA_DIR: a socket path must stay under about 100 bytes), named with
 * this process's pid so that a later start can tell whose it was. mkdtemp makes it 0700.
 */
export function createSocketDir(): string {
  return mkdtempSync(join(tmpdir(), `${SOCKET_DIR_PREFIX}${process.pid}-`));
}

/**
 * Removes the socket directories that killed processes left in the temporary folder: those of this user
 * that nobody listens on, and whose process is gone or had this process's pid (a previous PID 1 of a
 * container). Returns how many; those of an older naming (no pid) go when nobody listens.
 */
export function removeStaleSocketDirs(): number {
  let removed = 0;
  let entries: string[];
  try {
    entries = readdirSync(tmpdir()).filter((name) => name.startsWith(SOCKET_DIR_PREFIX));
  } catch {
    return 0;
  }
  for (const name of entries) {
    const path = join(tmpdir(), name);
    try {
      if (lstatSync(path).uid !== process.getuid?.()) continue;
      const pid = /^petstore-pg-(\d+)-/.exec(name)?.[1];
      // A socket listened on is never stale: its pid may be of another PID namespace sharing this folder
      // (a container beside this one), where it looks gone. Otherwise the pid tells whether it is left over.
      const stale = !listenedOn(path) && (pid === undefined || Number(pid) === process.pid || !alive(Number(pid)));
      if (!stale) continue;
      rmSync(path, { recursive: true, force: true });
      removed++;
    } catch {
      // removed by another process meanwhile
    }
  }
  return removed;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a process listens on a socket in `dir` (Linux lists bound Unix sockets in /proc/net/unix; elsewhere assumed). */
function listenedOn(dir: string): boolean {
  let sockets: string;
  try {
    sockets = readFileSync('/proc/net/unix', 'utf8');
  } catch {
    return true;
  }
  return sockets.includes(`${dir}/.s.PGSQL.`);
}
