import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { DomainError, ValidationFailedError } from '@petstore/http-errors';
import type { FastifyRequest } from 'fastify';

/**
 * A body that could not be accepted. It is handed to the route instead of failing at once, because
 * authentication is checked before anything about the body: the body pipe throws it after the guard.
 */
export class RejectedBody {
  constructor(readonly error: DomainError) {}
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes of a JSON body, read but not parsed yet: parsing waits until the guards have passed. */
export class UnparsedJson {
  constructor(private readonly bytes: Buffer) {}

  /** The JSON value, or the RejectedBody that says why there is none. */
  parse(): unknown {
    if (this.bytes.length === 0) {
      return new RejectedBody(new ValidationFailedError([{ field: 'body', message: 'The request body is required' }]));
    }
    try {
      return JSON.parse(utf8.decode(this.bytes));
    } catch {
      return new RejectedBody(new DomainError('malformed_json', 'The request body is not valid JSON (UTF-8)'));
    }
  }
}

/**
 * `@JsonBody()`: the request body, parsed now (after the guards) and kept as the request's body, where
 * later steps (the idempotency hash) read it; a refused one throws its error. The global pipe validates it.
 */
export const JsonBody = createParamDecorator((_data: unknown, context: ExecutionContext): unknown => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  if (request.body instanceof UnparsedJson) request.body = request.body.parse();
  if (request.body instanceof RejectedBody) throw request.body.error;
  return request.body;
});
