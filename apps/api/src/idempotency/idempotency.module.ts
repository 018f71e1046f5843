import { Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';
import { IdempotentRequests } from './idempotent-requests';

@Module({
  // IdempotentRequests registers itself with the app's Fastify instance, where @Idempotent() finds it.
  providers: [IdempotencyService, IdempotencyRepository, IdempotentRequests],
})
export class IdempotencyModule {}
