import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';

/**
 * What a fixed-window counter answers the guard, whichever store keeps it: the hits in the window so
 * far (this one included), and the whole seconds left of the window, which is also when a refused key
 * may come back.
 */
export function fixedWindowRecord(hits: number, remainingMs: number, limit: number): ThrottlerStorageRecord {
  const seconds = Math.max(1, Math.ceil(remainingMs / 1000));
  const isBlocked = hits > limit;
  return { totalHits: hits, timeToExpire: seconds, isBlocked, timeToBlockExpire: isBlocked ? seconds : 0 };
}
