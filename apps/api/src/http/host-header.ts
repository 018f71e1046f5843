import { DomainError, mapError, sendError } from '@petstore/http-errors';
import type { FastifyInstance } from 'fastify';
import { REQUEST_ID_HEADER } from '../logging/request-log';

/** Fields a request may carry once: Node keeps the first of several silently, where a proxy may read another. */
const SINGLETONS = ['host', 'authorization'];

/**
 * HTTP/1.1 requires one Host (RFC 9112 §3.2) and RFC 6750 refuses a repeated credential: such a request is 400 with the
 * Error body and the request id. Node's own Host check (requireHostHeader) is a bare 400, so it is off (server-limits.ts).
 */
export function refuseMissingOrRepeatedHost(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const problem =
      request.headers.host === undefined && request.raw.httpVersionMinor !== 0 ? 'has no Host header' : repeated(request.raw.rawHeaders);
    if (!problem) return done();
    reply.header(REQUEST_ID_HEADER, request.id);
    sendError(reply, mapError(new DomainError('malformed_request', `The request ${problem}`), request));
  });
}

function repeated(rawHeaders: string[]): string | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (!SINGLETONS.includes(name)) continue;
    if (seen.has(name)) return `has more than one ${name === 'host' ? 'Host' : 'Authorization'} header`;
    seen.add(name);
  }
  return undefined;
}
