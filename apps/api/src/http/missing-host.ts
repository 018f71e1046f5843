import { DomainError, mapError, sendError } from '@petstore/http-errors';
import type { FastifyInstance } from 'fastify';
import { REQUEST_ID_HEADER } from '../logging/request-log';

/**
 * HTTP/1.1 requires Host (RFC 9112 §3.2). Node's own refusal (requireHostHeader) is a bare 400, so it
 * is off (server-limits.ts) and such a request gets the Error body and the request id here.
 */
export function refuseRequestsWithoutHost(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.headers.host !== undefined || request.raw.httpVersionMinor === 0) return done();
    reply.header(REQUEST_ID_HEADER, request.id);
    sendError(reply, mapError(new DomainError('malformed_request', 'The request has no Host header'), request));
  });
}
