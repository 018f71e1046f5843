import type { IncomingMessage } from 'node:http';
import { DomainError, mapError, sendError } from '@petstore/http-errors';
import type { FastifyInstance } from 'fastify';
import { REQUEST_ID_HEADER } from '../logging/request-log';

/** Fields a request may carry once: Node keeps the first of several silently, where a proxy may read another. */
const SINGLETONS = ['host', 'authorization'];

/**
 * A request whose head is missing or ambiguous is 400 with the Error body and the request id: HTTP/1.1 requires one Host
 * (RFC 9112 §3.2; Node's own check, requireHostHeader, is a bare 400, so it is off in server-limits.ts), RFC 6750 refuses
 * a repeated credential, and a transfer coding other than chunked would be read as plain bytes (Node decodes no other).
 */
export function refuseAmbiguousRequests(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const problem = headProblem(request.raw);
    if (!problem) return done();
    reply.header(REQUEST_ID_HEADER, request.id);
    sendError(reply, mapError(new DomainError('malformed_request', `The request ${problem}`), request));
  });
}

function headProblem({ headers, httpVersionMinor, rawHeaders }: IncomingMessage): string | undefined {
  if (headers.host === undefined && httpVersionMinor !== 0) return 'has no Host header';
  const coding = headers['transfer-encoding'];
  if (coding !== undefined && coding.toLowerCase() !== 'chunked') return 'uses a transfer coding other than chunked';
  const seen = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (!SINGLETONS.includes(name)) continue;
    if (seen.has(name)) return `has more than one ${name === 'host' ? 'Host' : 'Authorization'} header`;
    seen.add(name);
  }
  return undefined;
}
