import { ExecutionContext, UseInterceptors, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { IdempotencyClaim, IdempotencyInterceptor, claimOf } from './idempotency.interceptor';

export type { IdempotencyClaim };

/**
 * A POST whose Idempotency-Key runs it once per key and replays its answer (IdempotencyInterceptor).
 * Its handler takes `@IdempotencyClaimOf()` and its service stores the effect and the answer together
 * under that claim, in one transaction (`recordAnswer`).
 */
export const Idempotent = () => UseInterceptors(IdempotencyInterceptor);

/** The claim of a keyed request (undefined without a key): what the service records its answer under. */
export const IdempotencyClaimOf = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  claimOf(context.switchToHttp().getRequest<FastifyRequest>()),
);
