import { Module } from '@nestjs/common';
import { IdempotencyService } from './idempotency.service';
import { IdempotentRequests } from './idempotent-requests';

@Module({
  providers: [IdempotencyService, IdempotentRequests],
  exports: [IdempotentRequests],
})
export class IdempotencyModule {}
