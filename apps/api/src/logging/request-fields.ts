import type { IncomingMessage } from 'node:http';
import { trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PinoLogger } from 'nestjs-pino';
import { loggableUrl } from './loggable-url';
import { REQUEST_ID_HEADER } from './request-id';

/**
 * pino-http sees Node's request, not Fastify's: the route template and the key Fastify's request carries
 * are looked up here when the line is written. Entries go with their request (a WeakMap).
 */
const fastifyRequests = new WeakMap<IncomingMessage, FastifyRequest & { apiKey?: { keyId: string } }>();
/** The requests pino-http's middleware saw: Nest runs it on /v1/* and on the routes outside the prefix. */
const seen = new WeakSet<IncomingMessage>();

/**
 * Echoes the request id on every answer, unknown routes included, and remembers the request for its log
 * line. A request Nest's middleware never saw (an unknown path outside /v1, /docs) gets its line here.
 */
export function installRequestFields(fastify: FastifyInstance, apiKeys: readonly string[]): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    fastifyRequests.set(request.raw, request);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    if (!seen.has(request.raw)) logRequest(request, reply, apiKeys);
    done();
  });
}

/** The level of a request line: a 5xx other than the designed 501 is an error. */
export function requestLevel(status: number): 'error' | 'info' {
  return status >= 500 && status !== 501 ? 'error' : 'info';
}

/** What a request line says beyond pino-http's own fields: the matched route and the API key's id. */
export function requestFields(raw: IncomingMessage): { route?: string; keyId?: string } {
  const request = fastifyRequests.get(raw);
  return { route: request?.routeOptions.url, keyId: request?.apiKey?.keyId };
}

/** pino-http's customProps: marks the request seen, and gives the trace id of its span while traces are on. */
export function traceFields(raw: IncomingMessage): { traceId?: string } {
  seen.add(raw);
  const context = trace.getActiveSpan()?.spanContext();
  return context && trace.isSpanContextValid(context) ? { traceId: context.traceId } : {};
}

/** The line of a request pino-http never saw, in its shape; also for Fastify's router errors, which skip every hook. */
export function logRequest(request: FastifyRequest, reply: FastifyReply, apiKeys: readonly string[]): void {
  const status = reply.statusCode;
  PinoLogger.root[requestLevel(status)](
    { requestId: request.id, req: request.raw, res: reply.raw, durationMs: Math.round(reply.elapsedTime), ...requestFields(request.raw) },
    `${request.method} ${loggableUrl(request.url, apiKeys)} ${status}`,
  );
}
