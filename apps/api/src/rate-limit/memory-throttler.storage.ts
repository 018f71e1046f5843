import { OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { fixedWindowRecord } from './fixed-window';

interface Window {
  hits: number;
  endsAt: number;
}

/**
 * Fixed-window counters in this process, for an instance without REDIS_URL: the same counting as
 * RedisThrottlerStorage, so a key meets the same limit with or without Redis. @nestjs/throttler's own
 * memory store keeps a timestamp per hit and filters them all on every request: 13 ms of CPU a request
 * once a key has 200,000 hits in the window (`pnpm bench` runs at a quota of 1,000,000 a minute, and
 * its GET cost 16 times the same-work yardstick's). One counter per key costs the same at any quota.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly windows = new Map<string, Window>();
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {}

  increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { hits: 0, endsAt: now + ttl };
      this.windows.set(key, window);
      this.sweeper ??= setInterval(() => this.sweep(), ttl).unref();
    }
    window.hits += 1;
    return Promise.resolve(fixedWindowRecord(window.hits, window.endsAt - now, limit));
  }

  /** Forgets ended windows, so that keys no longer in use do not stay in memory. */
  sweep(): void {
    const now = this.now();
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }

  /** How many keys have a window, ended or not (for the spec). */
  get size(): number {
    return this.windows.size;
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
    this.windows.clear();
  }
}
