import { Logger, OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { Metrics } from '../observability/metrics';

const FAILURES_TO_OPEN = 3;

/** A count Redis failed; the first of a run is logged by the guard, with the id of the request that met it. */
export class RedisCountFailed extends Error {
  constructor(
    cause: unknown,
    readonly firstInARow: boolean,
  ) {
    super(`rate limit not checked, Redis failed (${(cause as Error).message}); not asked for 5 s after 3 failures in a row`);
  }
}
const OPEN_MS = 5_000;

/** Counts in Redis behind a circuit breaker (after 3 failures in a row, not asked for 5 s), so requests do not each wait for its timeout. */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
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
      if (++this.failuresInARow >= FAILURES_TO_OPEN) {
        this.openUntil = Date.now() + OPEN_MS;
        // A command timeout keeps the connection, and one whose peer went silent answers nothing ever again: a new one.
        this.redis.redis.disconnect(true);
      }
      throw new RedisCountFailed(error, this.failuresInARow === 1);
    }
  }

  /** ThrottlerModule's storage option is no provider of its own: the connection is closed here. */
  onApplicationShutdown(): void {
    this.redis.onModuleDestroy();
  }
}
