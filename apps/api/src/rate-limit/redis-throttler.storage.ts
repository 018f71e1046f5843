import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import Redis from 'ioredis';

// One round trip, atomic: count the hit, start the window on the first one, read what is left of it.
const INCREMENT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { hits, redis.call('PTTL', KEYS[1]) }`;

/**
 * Fixed-window counters in Redis, shared by every instance. When Redis does not answer within
 * 500 ms, increment fails and the guard lets the request through (fail open).
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1000,
      commandTimeout: 500,
      lazyConnect: false,
    });
    // One warning per outage, not one per reconnection attempt.
    let down = false;
    this.redis.on('error', (error: Error) => {
      if (!down) this.logger.warn(`Redis unreachable, rate limits are not enforced until it returns: ${error.message}`);
      down = true;
    });
    this.redis.on('ready', () => (down = false));
  }

  /** Throws when Redis fails; the guard then lets the request through (and logs it with the request's id). */
  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const [hits, remainingMs] = (await this.redis.eval(INCREMENT, 1, key, ttl)) as [number, number];
    const seconds = Math.max(1, Math.ceil(remainingMs / 1000));
    return { totalHits: hits, timeToExpire: seconds, isBlocked: hits > limit, timeToBlockExpire: hits > limit ? seconds : 0 };
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}
