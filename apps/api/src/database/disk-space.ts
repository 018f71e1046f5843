import { statfsSync } from 'node:fs';
import { DomainError, OUT_OF_SPACE_MESSAGE } from '@petstore/http-errors';

const MB = 1024 * 1024;

/**
 * Free space the embedded PostgreSQL keeps in reserve: one WAL segment (16 MB), which it must be able
 * to create in full, and room for what is written between two looks. Out of space while writing WAL,
 * PGlite does not fail the statement but spins inside the WebAssembly call, which blocks the whole
 * process (liveness, SIGTERM) for good. So writes stop before that: below the reserve they are
 * answered 503, and readiness says why, until space returns.
 */
export const WRITE_RESERVE_BYTES = 24 * MB;
/** A start opens (and checkpoints) the database: it needs a WAL segment free; a new folder's files are about 40 MB more. */
export const START_RESERVE_BYTES = { existing: 24 * MB, fresh: 64 * MB };
/** How long one look at the free space is trusted: a statfs per write would be wasted work. */
const TRUSTED_MS = 500;

export class OutOfDiskSpaceError extends DomainError {
  constructor() {
    super('service_unavailable', OUT_OF_SPACE_MESSAGE);
  }
}

/** Free bytes for this user on the file system holding `path`. */
export function freeBytes(path: string): number {
  const stats = statfsSync(path);
  return stats.bavail * stats.bsize;
}

export const megabytes = (bytes: number): string => `${(bytes / MB).toFixed(1)} MB`;

/** Watches the free space of the embedded database's folder. */
export class DiskSpace {
  private checkedAt = -Infinity;
  private free = Infinity;

  constructor(private readonly dataDir: string) {}

  /** Why the database cannot take writes now, or undefined. */
  shortage(): string | undefined {
    const now = performance.now();
    if (now - this.checkedAt > TRUSTED_MS) {
      this.checkedAt = now;
      try {
        this.free = freeBytes(this.dataDir);
      } catch {
        this.free = Infinity; // cannot tell: the database itself will say
      }
    }
    if (this.free >= WRITE_RESERVE_BYTES) return undefined;
    return `the disk of DATA_DIR is full (${megabytes(this.free)} free, ${megabytes(WRITE_RESERVE_BYTES)} needed)`;
  }

  /** Throws OutOfDiskSpaceError (503) instead of a write the database could not survive. */
  assertWritable(): void {
    if (this.shortage()) throw new OutOfDiskSpaceError();
  }
}
