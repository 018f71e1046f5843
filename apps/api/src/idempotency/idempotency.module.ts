import { Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

@Module({
  providers: [IdempotencyService, IdempotencyRepository, IdempotencyInterceptor],
  // A route's @Idempotent() instantiates the interceptor in its own module, from these.
  exports: [IdempotencyService, IdempotencyInterceptor],
})
export class IdempotencyModule {}
