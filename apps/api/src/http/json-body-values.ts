import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { DomainError, ValidationFailedError } from '@petstore/http-errors';
import type { FastifyRequest } from 'fastify';

/** A body refused by the content-type parser (json-body.ts): the refusal waits until the guards passed. */
export class RejectedBody {
  constructor(readonly error: DomainError) {}
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON value of the request body, parsed now (after the guards) from the bytes the parser kept,
 * and kept as the request's body for what reads it later (the idempotency hash). Throws the refusal
 * of a body that cannot be taken; a request without a body gives undefined.
 */
export function readJsonBody(request: FastifyRequest): unknown {
  const body = request.body;
  if (body instanceof RejectedBody) throw body.error;
  if (!Buffer.isBuffer(body)) return body;
  if (body.length === 0) throw new ValidationFailedError([{ field: 'body', message: 'The request body is required' }]);
  try {
    request.body = JSON.parse(utf8.decode(body));
  } catch {
    throw new DomainError('malformed_json', 'The request body is not valid JSON (UTF-8)');
  }
  return request.body;
}

/** `@JsonBody(pipe)`: the request's JSON body (see readJsonBody). */
export const JsonBody = createParamDecorator((_data: unknown, context: ExecutionContext): unknown =>
  readJsonBody(context.switchToHttp().getRequest<FastifyRequest>()),
);
