import { Global, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { API_KEY_CACHE, API_KEY_CHANGES, FAILURE_BUDGET } from './auth.providers';
import { BearerStrategy } from './bearer.strategy';
import { DeprecatedCalls } from './deprecated-calls';
import { FailureBudget } from './failure-budget';

/**
 * API keys and what checks them; AppModule registers the guards (BearerAuthGuard, ScopesGuard) in the
 * order they run. Global: the guards and `/metrics` (which counts its token's failures in the same
 * budget) use its exports.
 */
@Global()
@Module({
  imports: [PassportModule],
  providers: [ApiKeysRepository, API_KEY_CACHE, API_KEY_CHANGES, ApiKeysService, DeprecatedCalls, BearerStrategy, FAILURE_BUDGET],
  exports: [ApiKeysService, DeprecatedCalls, FailureBudget],
})
export class AuthModule {}
