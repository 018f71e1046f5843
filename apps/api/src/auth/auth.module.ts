import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

/** API keys and the bearer strategy that checks them; AppModule registers the guards in the order they run. */
@Module({ imports: [PassportModule], providers: [ApiKeysRepository, ApiKeysService] })
export class AuthModule {}
