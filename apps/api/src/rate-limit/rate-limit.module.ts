import { DynamicModule, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/config';
import { Metrics } from '../observability/metrics';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { RedisThrottlerStorage } from './redis-throttler.storage';

/**
 * RATE_LIMIT_PER_MINUTE requests a minute per API key, counted in Redis when REDIS_URL is set (shared by all
 * instances), else in memory. Imported only when the limit is on; AppModule places RateLimitGuard among the guards.
 */
@Module({})
export class RateLimitModule {
  static forRoot({ rateLimit }: AppConfig): DynamicModule {
    return {
      module: RateLimitModule,
      imports: [
        ThrottlerModule.forRootAsync({
          inject: [Metrics],
          useFactory: async (metrics: Metrics) => ({
            throttlers: [{ name: 'default', ttl: 60_000, limit: rateLimit.perMinute }],
            storage: rateLimit.redisUrl ? await RedisThrottlerStorage.connect(rateLimit.redisUrl, metrics.redis) : new MemoryThrottlerStorage(),
          }),
        }),
      ],
    };
  }
}
