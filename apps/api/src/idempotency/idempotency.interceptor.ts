import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ValidationFailedError } from '@petstore/http-errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, from, lastValueFrom } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/bearer-auth.guard';
import { Metrics } from '../observability/metrics';
import { IdempotencyKeyReusedError, IdempotencyService, RequestInProgressError, hashRequestBody } from './idempotency.service';

// The draft's value is a structured-field string ("…"); the bare token form is accepted too.
const KEY = /^(?:"([\x21\x23-\x7e]{1,255})"|([\x21\x23-\x7e]{1,255}))$/;
const KEY_MESSAGE = 'Idempotency-Key must be 1 to 255 visible ASCII characters, optionally in double quotes';

/** The Idempotency-Key a keyed request's operation runs under. */
export interface IdempotencyClaim {
  apiKeyId: string;
  key: string;
  /** The hash of the request body, read when the answer is stored (after the body is parsed and valid). */
  readonly requestHash: string;
}

const claims = new WeakMap<FastifyRequest, IdempotencyClaim>();

/** The claim the interceptor made for this request, if it carries a key. */
export function claimOf(request: FastifyRequest): IdempotencyClaim | undefined {
  return claims.get(request);
}

/**
 * Idempotency-Key on a POST (draft-ietf-httpapi-idempotency-key-header): the first request with a key
 * runs and its answer is kept; the same key with the same body replays that answer (status, body,
 * Location). The route's service stores its effect and the answer together in one transaction (`recordAnswer`), so no
 * failure, at any point, leaves an effect without its answer. A key already taken makes that store
 * fail as a whole, and the record is read instead; a record that expired is removed, and the request runs again.
 */
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
    // The body is parsed and validated by the handler's parameters, after this: its hash is taken when the answer is stored.
    const claim: IdempotencyClaim = {
      apiKeyId,
      key: match[1] ?? match[2],
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

/** The unique violation of a recording statement whose key already holds a record. */
function isKeyTaken(error: unknown): boolean {
  const { code, constraint } = error as { code?: string; constraint?: string };
  return code === '23505' && constraint === 'idempotency_keys_pkey';
}
