import { ExecutionContext, UseInterceptors, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { IdempotencyInterceptor, claimOf } from './idempotency.interceptor';

/** A POST run once per Idempotency-Key; its service stores the effect and the answer under `@IdempotencyClaimOf()`. */
export const Idempotent = () => UseInterceptors(IdempotencyInterceptor);

export const IdempotencyClaimOf = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  claimOf(context.switchToHttp().getRequest<FastifyRequest>()),
);
