import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ValidationFailedError } from '@petstore/http-errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticatedRequest } from '../auth/bearer-auth.guard';
import { Metrics } from '../observability/metrics';
import { IdempotencyKeyReusedError, IdempotencyService, RequestInProgressError, hashRequestBody } from './idempotency.service';
import { registerIdempotentRequests } from './idempotent.decorator';

// The draft's value is a structured-field string ("…"); the bare token form is accepted too.
const KEY = /^(?:"([\x21\x23-\x7e]{1,255})"|([\x21\x23-\x7e]{1,255}))$/;
const KEY_MESSAGE = 'Idempotency-Key must be 1 to 255 visible ASCII characters, optionally in double quotes';

/**
 * Idempotency-Key on a POST: the first request with a key runs and its answer is kept; the same key
 * with the same body replays that answer (status, body, Location); see IdempotencyService.
 * A route asks for it with @Idempotent(), which wraps its handler (a plain async wrapper, not a Nest
 * interceptor: an interceptor puts an rxjs pipeline around every create, key or not, which cost ~15 %
 * of a create's CPU; see README, Performance).
 */
@Injectable()
export class IdempotentRequests {
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
    const stored = await this.idempotency.begin(apiKeyId, key, hashRequestBody(request.body)).catch((error: unknown) => {
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
    let body: T;
    try {
      body = await operation();
    } catch (error) {
      // A request that failed keeps no record, so it may be retried with the same key.
      await this.idempotency.release(apiKeyId, key).catch(() => undefined);
      throw error;
    }
    const location = reply.getHeader('location');
    await this.idempotency.complete(apiKeyId, key, { statusCode: reply.statusCode, body, location: typeof location === 'string' ? location : null });
    return body;
  }
}
