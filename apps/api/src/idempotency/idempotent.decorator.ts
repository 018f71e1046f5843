import { ExecutionContext, UseInterceptors, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Statement } from '../database/database';
import { IdempotencyClaim, IdempotencyInterceptor, claimOf } from './idempotency.interceptor';

export type { IdempotencyClaim };

/**
 * A POST whose Idempotency-Key runs it once per key and replays its answer (IdempotencyInterceptor).
 * Its handler takes `@IdempotencyClaimOf()` and its service stores the effect and the answer together
 * under that claim (`recordingAnswer`).
 */
export const Idempotent = () => UseInterceptors(IdempotencyInterceptor);

/** The claim of a keyed request (undefined without a key): what the service records its answer under. */
export const IdempotencyClaimOf = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  claimOf(context.switchToHttp().getRequest<FastifyRequest>()),
);

/** How the answer is written from the created row: SQL expressions over the columns `create` returns. */
export interface RecordedAnswer {
  statusCode: number;
  /** jsonb: exactly the body the route answers (a replay sends it as stored). */
  body: string;
  /** text: the Location header, or NULL. */
  location: string;
}

/**
 * Wraps `create`, an INSERT … RETURNING with `parameters` parameters, so that the same statement
 * records the answer under the key (parameters n+1 to n+3: `claimValues`). One statement is atomic
 * even behind a transaction pooler: the pet and its answer are stored together or not at all. A key
 * already recorded makes the whole statement fail (unique violation on idempotency_keys_pkey), and a
 * second request with the key waits on the first's insert until it commits; see IdempotencyInterceptor.
 */
export function recordingAnswer(name: string, create: Statement, parameters: number, answer: RecordedAnswer): Statement {
  const [apiKeyId, key, hash] = [1, 2, 3].map((i) => `$${parameters + i}`);
  const text = `WITH created AS (${create.text}),
      answer AS (
        INSERT INTO idempotency_keys (api_key_id, idempotency_key, request_hash, status_code, response_body, location)
        SELECT ${apiKeyId}, ${key}, ${hash}, ${answer.statusCode}, ${answer.body}, ${answer.location} FROM created
      )
    SELECT * FROM created`;
  return { name, text };
}

/** The values of the claim's parameters in a `recordingAnswer` statement. */
export function claimValues(claim: IdempotencyClaim): string[] {
  return [claim.apiKeyId, claim.key, claim.requestHash];
}
