import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Metrics } from '../observability/metrics';
import { PassportModule } from '@nestjs/passport';
import { ApiKeysService } from './api-keys.service';
import { BearerAuthGuard } from './bearer-auth.guard';
import { BearerStrategy } from './bearer.strategy';
import { DeprecatedCalls } from './deprecated-calls';
import { FailureBudget } from './failure-budget';
import { RedisCircuit } from './redis-circuit';
import { ScopesGuard } from './scopes.guard';

/** Global: `/metrics` counts its token's failures in the same budget (FailureBudget). */
@Global()
@Module({
  imports: [PassportModule],
  providers: [
    ApiKeysService,
    DeprecatedCalls,
    BearerStrategy,
    {
      provide: FailureBudget,
      inject: [APP_CONFIG, Metrics],
      useFactory: (config: AppConfig, metrics: Metrics) =>
        new FailureBudget(
          config.auth.failuresPerMinute,
          config.rateLimit.redisUrl && config.auth.failuresPerMinute > 0
            ? new RedisCircuit(config.rateLimit.redisUrl, 'AuthFailures', metrics.redis)
            : undefined,
        ),
    },
    { provide: APP_GUARD, useClass: BearerAuthGuard },
  ],
  exports: [ApiKeysService, DeprecatedCalls, FailureBudget],
})
export class AuthModule {}

/**
 * The scope check, a global guard of its own: imported after the rate limit module, so it runs after
 * the limiter (global guards run in the order their modules are imported).
 */
@Module({ providers: [{ provide: APP_GUARD, useClass: ScopesGuard }] })
export class ScopesModule {}
