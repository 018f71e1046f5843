import { DynamicModule, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { RedisCircuit } from '../auth/redis-circuit';
import { AppConfig } from '../config/config';
import { Metrics } from '../observability/metrics';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { RedisThrottlerStorage } from './redis-throttler.storage';

/**
 * Rate limiting per API key: RATE_LIMIT_PER_MINUTE requests a minute, counted in fixed windows of a
 * minute, in Redis when REDIS_URL is set (shared by all instances), else in memory. Imported only when
 * the limit is on; its guard (RateLimitGuard) is placed among the others by AppModule.
 */
@Module({})
export class RateLimitModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: RateLimitModule,
      imports: [
        // Global: RateLimitGuard, registered by AppModule, reads its options and storage.
        ThrottlerModule.forRootAsync({
          inject: [Metrics],
          useFactory: (metrics: Metrics) => ({
            throttlers: [{ name: 'default', ttl: 60_000, limit: config.rateLimit.perMinute }],
            storage: config.rateLimit.redisUrl
              ? new RedisThrottlerStorage(new RedisCircuit(config.rateLimit.redisUrl, 'RateLimit', metrics.redis))
              : new MemoryThrottlerStorage(),
          }),
        }),
      ],
    };
  }
}
