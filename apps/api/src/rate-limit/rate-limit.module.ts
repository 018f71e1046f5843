import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { RedisCircuit } from '../auth/redis-circuit';
import { AppConfig } from '../config/config';
import { Metrics } from '../observability/metrics';
import { RateLimitGuard } from './rate-limit.guard';
import { RedisThrottlerStorage } from './redis-throttler.storage';

/**
 * Rate limiting per API key: RATE_LIMIT_PER_MINUTE requests a minute (0: off), counted in Redis when
 * REDIS_URL is set (shared by all instances), else in memory. Imported after the auth module, so its
 * guard runs after authentication and knows the key.
 */
@Module({})
export class RateLimitModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (config.rateLimit.perMinute === 0) return { module: RateLimitModule };
    return {
      module: RateLimitModule,
      imports: [
        ThrottlerModule.forRootAsync({
          inject: [Metrics],
          useFactory: (metrics: Metrics) => ({
            throttlers: [{ name: 'default', ttl: 60_000, limit: config.rateLimit.perMinute }],
            storage: config.rateLimit.redisUrl
              ? new RedisThrottlerStorage(new RedisCircuit(config.rateLimit.redisUrl, 'RateLimit', metrics.redis))
              : undefined,
          }),
        }),
      ],
      providers: [{ provide: APP_GUARD, useClass: RateLimitGuard }],
    };
  }
}
