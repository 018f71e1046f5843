import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ApiKeysService } from './api-keys.service';
import { BearerAuthGuard } from './bearer-auth.guard';
import { BearerStrategy } from './bearer.strategy';
import { ScopesGuard } from './scopes.guard';

@Module({
  imports: [PassportModule],
  providers: [ApiKeysService, BearerStrategy, { provide: APP_GUARD, useClass: BearerAuthGuard }],
  exports: [ApiKeysService],
})
export class AuthModule {}

/**
 * The scope check, a global guard of its own: imported after the rate limit module, so it runs after
 * the limiter (global guards run in the order their modules are imported).
 */
@Module({ providers: [{ provide: APP_GUARD, useClass: ScopesGuard }] })
export class ScopesModule {}
