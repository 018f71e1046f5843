import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ApiKeysService } from './api-keys.service';
import { BearerAuthGuard } from './bearer-auth.guard';
import { BearerStrategy } from './bearer.strategy';

@Module({
  imports: [PassportModule],
  providers: [ApiKeysService, BearerStrategy, { provide: APP_GUARD, useClass: BearerAuthGuard }],
  exports: [ApiKeysService],
})
export class AuthModule {}
