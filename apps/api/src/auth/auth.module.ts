import { Module } from '@nestjs/common';
import { BoundedQueries } from '../database/bounded-queries';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

@Module({
  providers: [
    { provide: ApiKeysRepository, useFactory: (db: BoundedQueries) => new ApiKeysRepository(db), inject: [BoundedQueries] },
    ApiKeysService,
  ],
})
export class AuthModule {}
