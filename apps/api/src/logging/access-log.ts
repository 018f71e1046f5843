import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { TracedRequest } from '../observability/tracing';
import { loggableUrl } from './loggable-url';
import { REQUEST_ID_HEADER } from './request-id';

/**
 * Echoes the request id on every answer, errors and unknown routes included, and writes one JSON line
 * per answered request: id, method, url (see loggableUrl: no key a client put in it), matched route,
 * status, duration, the API key's id and, while traces are on, the trace id.
 * A 5xx other than the designed 501 is logged at error level; its cause is logged by the exception filter.
 */
export function installRequestLogging(fastify: FastifyInstance, logger: Logger): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    logAnswer(logger, request, reply);
    done();
  });
}

/** The one line of an answered request (also called for router errors, which skip Fastify's hooks). */
export function logAnswer(logger: Logger, request: FastifyRequest, reply: FastifyReply): void {
  const statusCode = reply.statusCode;
  const { method } = request;
  const url = loggableUrl(request.url);
  logger[statusCode >= 500 && statusCode !== 501 ? 'error' : 'info'](
    {
      requestId: request.id,
      req: { method, url },
      route: request.routeOptions.url,
      res: { statusCode },
      durationMs: reply.elapsedTime,
      keyId: (request as FastifyRequest & { apiKey?: { keyId: string } }).apiKey?.keyId,
      traceId: (request as TracedRequest).traceId,
    },
    `${method} ${url} ${statusCode}`,
  );
}
