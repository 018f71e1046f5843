import { trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PinoLogger } from 'nestjs-pino';
import type { AuthenticatedRequest } from '../auth/bearer-auth.guard';
import { loggableUrl } from './loggable-url';
import { REQUEST_ID_HEADER } from './request-id';

/**
 * Echoes the request id on every answer and writes one line per answered request. A Fastify hook, not
 * pino-http's own line: pino-http sees Node's request, without the route template or the API key.
 */
export function installRequestLog(fastify: FastifyInstance, apiKeys: readonly string[]): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    logRequest(request, reply, apiKeys);
    done();
  });
}

/** A request's line: id, method, URL (see loggableUrl), route, status, duration, key id and trace id; a 5xx but the designed 501 is an error. */
export function logRequest(request: FastifyRequest, reply: FastifyReply, apiKeys: readonly string[]): void {
  const status = reply.statusCode;
  const span = trace.getActiveSpan()?.spanContext();
  PinoLogger.root[status >= 500 && status !== 501 ? 'error' : 'info'](
    {
      requestId: request.id,
      req: request.raw,
      res: reply.raw,
      durationMs: Math.round(reply.elapsedTime),
      route: request.routeOptions.url,
      keyId: (request as AuthenticatedRequest).apiKey?.keyId,
      traceId: span && trace.isSpanContextValid(span) ? span.traceId : undefined,
    },
    `${request.method} ${loggableUrl(request.url, apiKeys)} ${status}`,
  );
}
