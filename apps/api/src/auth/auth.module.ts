import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

@Module({ imports: [PassportModule], providers: [ApiKeysRepository, ApiKeysService] })
export class AuthModule {}
