import { DynamicModule, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/config';
import { Metrics } from '../observability/metrics';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { RedisCircuitStorage } from './redis-circuit';

/**
 * Rate limiting per API key: RATE_LIMIT_PER_MINUTE requests a minute, in Redis when REDIS_URL is set
 * (shared by all instances), else in memory. Imported only when the limit is on; AppModule places
 * RateLimitGuard among the other guards.
 */
@Module({})
export class RateLimitModule {
  static forRoot(config: AppConfig): DynamicModule {
    const redisUrl = config.rateLimit.redisUrl;
    return {
      module: RateLimitModule,
      imports: [
        ThrottlerModule.forRootAsync({
          inject: [Metrics],
          useFactory: async (metrics: Metrics) => ({
            throttlers: [{ name: 'default', ttl: 60_000, limit: config.rateLimit.perMinute }],
            storage: redisUrl ? await redisStorage(redisUrl, metrics) : new MemoryThrottlerStorage(),
          }),
        }),
      ],
    };
  }
}

async function redisStorage(url: string, metrics: Metrics): Promise<RedisCircuitStorage> {
  // Loaded only when Redis is configured: an instance without it never holds ioredis.
  const { ThrottlerStorageRedisService } = await import('@nest-lab/throttler-storage-redis');
  // Fail fast rather than queue: a count waits at most 500 ms, then the request goes through.
  const storage = new ThrottlerStorageRedisService(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: 500,
  });
  storage.redis.on('error', () => undefined); // failures are met, counted and logged by the counts themselves
  return new RedisCircuitStorage(storage, metrics.redis);
}
