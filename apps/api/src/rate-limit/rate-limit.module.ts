import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerModule, type ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../config/config';
import { Metrics } from '../observability/metrics';

/** RATE_LIMIT_PER_MINUTE per API key, in Redis when REDIS_URL is set (shared by every instance), else in memory; the module is global. */
export const rateLimitModule = ({ rateLimit }: AppConfig) =>
  ThrottlerModule.forRootAsync({
    inject: [Metrics],
    useFactory: async (metrics: Metrics) => ({
      throttlers: [{ name: 'default', ttl: 60_000, limit: rateLimit.perMinute }],
      storage: rateLimit.redisUrl ? await RedisThrottlerStorage.connect(rateLimit.redisUrl, metrics.redis) : new MemoryThrottlerStorage(),
    }),
  });

/** One fixed-window count per key (the library's storage keeps every hit: 209 µs a request at 20,000); beyond 10,000 keys the oldest restart. */
export class MemoryThrottlerStorage implements ThrottlerStorage {
  private readonly windows = new LRUCache<string, { hits: number; endsAt: number }>({ max: 10_000 });

  constructor(private readonly now: () => number = Date.now) {}

  increment(key: string, ttl: number, limit: number): ReturnType<ThrottlerStorage['increment']> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { hits: 0, endsAt: now + ttl };
      this.windows.set(key, window);
    }
    window.hits += 1;
    const seconds = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
    const isBlocked = window.hits > limit;
    return Promise.resolve({ totalHits: window.hits, timeToExpire: seconds, isBlocked, timeToBlockExpire: isBlocked ? seconds : 0 });
  }
}

/** A count Redis failed; the first of a run is logged by the guard, with the id of the request that met it. */
export class RedisCountFailed extends Error {
  constructor(
    cause: unknown,
    readonly firstInARow: boolean,
  ) {
    super(`rate limit not checked, Redis failed (${(cause as Error).message}); not asked for 5 s after 3 failures in a row`);
  }
}

/** Counts in Redis behind a circuit breaker (after 3 failures in a row, not asked for 5 s), so requests do not each wait for its timeout. */
class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private failuresInARow = 0;
  private openUntil = 0;

  private constructor(
    private readonly redis: ThrottlerStorageRedisService,
    private readonly outcomes: Metrics['redis'],
  ) {}

  static async connect(url: string, outcomes: Metrics['redis']): Promise<RedisThrottlerStorage> {
    // Loaded only when Redis is configured: an instance without it never holds ioredis.
    const { ThrottlerStorageRedisService } = await import('@nest-lab/throttler-storage-redis');
    const storage = new ThrottlerStorageRedisService(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1000,
      commandTimeout: 500,
    });
    storage.redis.on('error', () => undefined); // failures are met, counted and logged by the counts themselves
    return new RedisThrottlerStorage(storage, outcomes);
  }

  async increment(...args: Parameters<ThrottlerStorage['increment']>): ReturnType<ThrottlerStorage['increment']> {
    if (Date.now() < this.openUntil) {
      this.outcomes.skipped.inc();
      throw new Error('Redis is not asked for a while after repeated failures');
    }
    try {
      const record = await this.redis.increment(...args);
      this.outcomes.ok.inc();
      if (this.failuresInARow > 0) this.logger.warn('Redis answers again: the rate limit is checked again');
      this.failuresInARow = 0;
      return record;
    } catch (error) {
      this.outcomes.failed.inc();
      if (++this.failuresInARow >= 3) this.openUntil = Date.now() + 5_000;
      throw new RedisCountFailed(error, this.failuresInARow === 1);
    }
  }

  /** ThrottlerModule's storage option is no provider of its own: the connection is closed here. */
  onApplicationShutdown(): void {
    this.redis.onModuleDestroy();
  }
}
