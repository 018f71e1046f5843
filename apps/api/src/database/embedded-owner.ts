import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config/config';

/**
 * Held in DATA_DIR while a process serves it: PGlite files can be opened by one process only. Created
 * before the database opens, atomically (a hard link fails when the name exists), so of two processes
 * started at once on one folder exactly one gets it.
 */
const OWNER_FILE = 'embedded-postgres.json';

export interface Owner {
  pid: number;
  /** The kernel's boot id: a file from before a reboot names no living process. */
  boot?: string;
  /** The process's start time in clock ticks since boot: a pid reused by another process does not match. */
  started?: string;
  /** The postgres:// URL once it serves (the key tool connects to it). */
  url?: string;
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

const bootId = (): string | undefined => readOptional('/proc/sys/kernel/random/boot_id');
/** Field 22 of /proc/<pid>/stat (after the parenthesised command name, which may hold spaces). */
const startTicks = (pid: number | 'self'): string | undefined => readOptional(`/proc/${pid}/stat`)?.split(') ')[1]?.split(' ')[19];

/** Why `owner` is stale (no process of its own serves the folder), or undefined when it is alive. */
export function staleness(owner: Owner): string | undefined {
  if (owner.pid === process.pid) return `it names this process's pid ${owner.pid} (a previous process with the same pid, as PID 1 in a container)`;
  const boot = bootId();
  if (owner.boot && boot && owner.boot !== boot) return `process ${owner.pid} ran before the machine restarted`;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return `process ${owner.pid} is gone`;
  }
  const started = startTicks(owner.pid);
  if (owner.started && started && owner.started !== started) return `pid ${owner.pid} now belongs to another process`;
  return undefined;
}

function readOwner(dataDir: string): { owner?: Owner; text?: string } {
  const text = readOptional(join(dataDir, OWNER_FILE));
  if (text === undefined) return {};
  try {
    return { owner: JSON.parse(text) as Owner, text };
  } catch {
    // Never half-written (it appears by a link of a complete file): unreadable means damaged, so stale.
    return { owner: { pid: -1 }, text };
  }
}

/** The process serving the embedded PostgreSQL in `dataDir`, and its URL, when one is running. */
export function runningOwner(dataDir: string): (Owner & { url: string }) | undefined {
  const { owner } = readOwner(dataDir);
  if (!owner || owner.pid < 0 || !owner.url || staleness(owner)) return undefined;
  return owner as Owner & { url: string };
}

export interface OwnerLock {
  /** Records the URL the folder is served at. */
  serving(url: string): void;
  release(): void;
}

/**
 * Takes `dataDir` for this process, or throws a ConfigError naming the process that serves it. A
 * stale owner file is replaced, and `notice` says why it was stale.
 */
export function lockDataDir(dataDir: string, notice: (message: string) => void): OwnerLock {
  const file = join(dataDir, OWNER_FILE);
  const mine: Owner = { pid: process.pid, boot: bootId(), started: startTicks('self') };
  const write = (owner: Owner) => {
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(owner), { mode: 0o600 });
    return temporary;
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    const temporary = write(mine);
    try {
      linkSync(temporary, file);
      return {
        serving: (url) => renameSync(write({ ...mine, url }), file),
        release: () => {
          if (readOwner(dataDir).owner?.pid === process.pid) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(temporary, { force: true });
    }
    const { owner, text } = readOwner(dataDir);
    if (!owner) continue; // removed in between: try again
    const stale = owner.pid < 0 ? 'it could not be read' : staleness(owner);
    if (!stale) throw new ConfigError([`DATA_DIR ${dataDir} is in use: process ${owner.pid} already serves its embedded PostgreSQL`]);
    notice(`DATA_DIR ${dataDir}: replaced a stale ${OWNER_FILE}: ${stale}`);
    removeIfUnchanged(file, text!);
  }
  throw new ConfigError([`DATA_DIR ${dataDir}: could not take ${OWNER_FILE} (other processes keep replacing it)`]);
}

/**
 * Removes the stale file `file` whose content was `stale`. Moved aside first (a rename is atomic), so
 * that of two processes removing it at once, the second does not remove the file the first just
 * created; a live owner's file taken by mistake is linked back.
 */
function removeIfUnchanged(file: string, stale: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch {
    return; // already moved by another process
  }
  try {
    if (readFileSync(aside, 'utf8').trim() !== stale) linkSync(aside, file);
  } catch {
    // a new owner exists already: theirs stands
  } finally {
    unlinkSync(aside);
  }
}
