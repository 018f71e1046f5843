import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ValidationFailedError } from '@petstore/http-errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticatedRequest } from '../auth/bearer-auth.guard';
import { Metrics } from '../observability/metrics';
import { IdempotencyKeyReusedError, IdempotencyService, RequestInProgressError, hashRequestBody } from './idempotency.service';
import { IdempotencyClaim, IdempotentRunner, registerIdempotentRequests, runClaimed } from './idempotent.decorator';

// The draft's value is a structured-field string ("…"); the bare token form is accepted too.
const KEY = /^(?:"([\x21\x23-\x7e]{1,255})"|([\x21\x23-\x7e]{1,255}))$/;
const KEY_MESSAGE = 'Idempotency-Key must be 1 to 255 visible ASCII characters, optionally in double quotes';

/**
 * Idempotency-Key on a POST: the first request with a key runs and its answer is kept; the same key
 * with the same body replays that answer (status, body, Location). The route's service stores its
 * effect and the answer in one statement (`recordingAnswer`), so no failure, at any point, leaves an
 * effect without its answer: a retry after any failure replays it, or runs the request for the first time.
 * A route asks for it with @Idempotent(), which wraps its handler (a plain async wrapper, not a Nest
 * interceptor: an interceptor puts an rxjs pipeline around every create, key or not, which cost ~15 %
 * of a create's CPU; see docs/performance.md).
 */
@Injectable()
export class IdempotentRequests implements IdempotentRunner {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly metrics: Metrics,
    adapterHost: HttpAdapterHost,
  ) {
    registerIdempotentRequests(adapterHost.httpAdapter.getInstance(), this);
  }

  /** Runs `operation` once per key; called after authentication and body validation. */
  async run<T>(request: FastifyRequest, reply: FastifyReply, operation: () => Promise<T>): Promise<T> {
    const header = request.headers['idempotency-key'];
    const apiKeyId = (request as AuthenticatedRequest).apiKey?.keyId;
    if (header === undefined || !apiKeyId) return operation();
    const match = typeof header === 'string' ? KEY.exec(header) : null;
    if (!match) throw new ValidationFailedError([{ field: 'Idempotency-Key', message: KEY_MESSAGE }]);
    const key = match[1] ?? match[2];
    const claim: IdempotencyClaim = { apiKeyId, key, requestHash: hashRequestBody(request.body), recorded: false };
    // The first attempt stores the effect and its answer in one statement; a key already taken makes it
    // fail as a whole, and the record is read instead. A record that expired is removed, then retried.
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const body = await runClaimed(claim, operation);
        if (!claim.recorded) throw new Error('An @Idempotent() route must store its effect with a recordingAnswer() statement');
        return body;
      } catch (error) {
        if (!isKeyTaken(error)) throw error;
      }
      const stored = await this.idempotency.recorded(apiKeyId, key, claim.requestHash).catch((error: unknown) => {
        if (error instanceof IdempotencyKeyReusedError) this.metrics.idempotency.keyReused.inc();
        if (error instanceof RequestInProgressError) this.metrics.idempotency.inProgress.inc();
        throw error;
      });
      if (stored) {
        this.metrics.idempotency.replayed.inc();
        reply.status(stored.statusCode).header('idempotent-replayed', 'true');
        if (stored.location) reply.header('location', stored.location);
        return stored.body as T;
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
