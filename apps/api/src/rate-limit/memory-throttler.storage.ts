import { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Window {
  hits: number;
  endsAt: number;
}

/**
 * Fixed-window counters in this process, for an instance without REDIS_URL: one counter per key.
 * @nestjs/throttler's own memory storage keeps a timestamp per hit and filters them all on every
 * request (30 µs a request at 1,000 hits in the window, 209 µs at 20,000). A refused key may come back
 * when its window ends.
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
    const seconds = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
    const isBlocked = window.hits > limit;
    return Promise.resolve({ totalHits: window.hits, timeToExpire: seconds, isBlocked, timeToBlockExpire: isBlocked ? seconds : 0 });
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
