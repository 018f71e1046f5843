import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Logger } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import type { ErrorLogger } from '@petstore/http-errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PinoLogger } from 'nestjs-pino';
import type { AuthenticatedRequest } from '../auth/bearer-auth.guard';
import { loggableUrl, redactSecrets } from './loggable-url';

export const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTED = /^[A-Za-z0-9._-]{1,128}$/;

/** Fastify's `genReqId`: an incoming X-Request-Id safe to log and echo is kept (not a key), else a new UUID. */
export function requestIdGenerator(apiKeys: readonly string[]): (raw: IncomingMessage) => string {
  return (raw) => {
    const incoming = raw.headers[REQUEST_ID_HEADER];
    return typeof incoming === 'string' && ACCEPTED.test(incoming) && redactSecrets(incoming, apiKeys) === incoming ? incoming : randomUUID();
  };
}

/** One line per answered request, from a Fastify hook: pino-http's own line lacks the route template and the API key. */
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
  const url = loggableUrl(request.url, apiKeys);
  PinoLogger.root[status >= 500 && status !== 501 ? 'error' : 'info'](
    {
      requestId: request.id,
      req: { method: request.method, url },
      res: { statusCode: status },
      durationMs: Math.round(reply.elapsedTime),
      route: request.routeOptions.url,
      keyId: (request as AuthenticatedRequest).apiKey?.keyId,
      traceId: span && trace.isSpanContextValid(span) ? span.traceId : undefined,
    },
    `${request.method} ${url} ${status}`,
  );
}

/** The exception filter's port on Nest's Logger, the line tied to its request by the request id. */
export function errorLogger(context: string): ErrorLogger {
  const logger = new Logger(context);
  // `err` as nestjs-pino writes an error with a stack: pino's serializer gives its type, message and stack.
  return {
    error: (message, requestId, stack) => logger.error({ requestId, ...(stack && { err: Object.assign(new Error(message), { stack }) }) }, message),
  };
}
