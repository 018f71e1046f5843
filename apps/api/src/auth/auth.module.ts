import { Global, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { BearerStrategy } from './bearer.strategy';
import { DeprecatedCalls } from './deprecated-calls';

/** API keys and the strategy that checks them; AppModule registers the guards in the order they run. */
@Global()
@Module({
  imports: [PassportModule],
  providers: [ApiKeysRepository, ApiKeysService, DeprecatedCalls, BearerStrategy],
  exports: [DeprecatedCalls],
})
export class AuthModule {}
