import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ValidationFailedError } from '@petstore/http-errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, from, lastValueFrom } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/bearer-auth.guard';
import { Metrics } from '../observability/metrics';
import type { IdempotencyClaim } from './idempotency-key.entity';
import { IdempotencyKeyReusedError, IdempotencyService, RequestInProgressError, hashRequestBody } from './idempotency.service';

// The draft's value is a structured-field string ("…"); the bare token form is accepted too.
const KEY = /^("?)([\x21\x23-\x7e]{1,255})\1$/;
const KEY_MESSAGE = 'Idempotency-Key must be 1 to 255 visible ASCII characters, optionally in double quotes';

const claims = new WeakMap<FastifyRequest, IdempotencyClaim>();

export const claimOf = (request: FastifyRequest) => claims.get(request);

/** Idempotency-Key (IETF draft): effect and answer are stored in one transaction, which a key already taken fails: then the answer is replayed. */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly metrics: Metrics,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers['idempotency-key'];
    const apiKeyId = (request as AuthenticatedRequest).apiKey?.keyId;
    if (header === undefined || !apiKeyId) return next.handle();
    const match = typeof header === 'string' ? KEY.exec(header) : null;
    if (!match) throw new ValidationFailedError([{ field: 'Idempotency-Key', message: KEY_MESSAGE }]);
    const claim: IdempotencyClaim = {
      apiKeyId,
      key: match[2],
      get requestHash() {
        return hashRequestBody(request.body);
      },
    };
    claims.set(request, claim);
    return from(this.runOnce(claim, next, context.switchToHttp().getResponse<FastifyReply>()));
  }

  private async runOnce(claim: IdempotencyClaim, next: CallHandler, reply: FastifyReply): Promise<unknown> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return await lastValueFrom(next.handle());
      } catch (error) {
        if (!isKeyTaken(error)) throw error;
      }
      const stored = await this.idempotency.recorded(claim.apiKeyId, claim.key, claim.requestHash).catch((error: unknown) => {
        if (error instanceof IdempotencyKeyReusedError) this.metrics.idempotency.keyReused.inc();
        if (error instanceof RequestInProgressError) this.metrics.idempotency.inProgress.inc();
        throw error;
      });
      if (stored) {
        this.metrics.idempotency.replayed.inc();
        reply.status(stored.statusCode).header('idempotent-replayed', 'true');
        if (stored.location) reply.header('location', stored.location);
        return stored.body;
      }
    }
    throw new RequestInProgressError();
  }
}

const isKeyTaken = (error: unknown) =>
  (error as { code?: string }).code === '23505' && (error as { constraint?: string }).constraint === 'idempotency_keys_pkey';
