import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config/config';

/** The files hold key digests and every pet: owner-only like a server's data directory (the initdb child inherits it). */
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

/** Takes group and other permissions off everything under `dir` (PGlite unpacks a new database 0666/0777); returns how many had some. */
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

/** An owner-only directory for the socket (not DATA_DIR: a socket path must stay under about 100 bytes). */
export function createSocketDir(): string {
  return mkdtempSync(join(tmpdir(), 'petstore-pg-'));
}
