import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LoggedRequest } from './logging.module';

export const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTED = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Fastify's `genReqId`: an incoming X-Request-Id that is safe to log and echo is kept, anything else
 * is replaced by a new UUID. Stored on the raw request too, where the request logger reads it.
 */
export function requestIdOf(raw: IncomingMessage): string {
  const incoming = raw.headers[REQUEST_ID_HEADER];
  const id = typeof incoming === 'string' && ACCEPTED.test(incoming) ? incoming : randomUUID();
  (raw as IncomingMessage & { id?: string }).id = id;
  return id;
}

/**
 * Echoes the request id on every answer, errors included, and hands the matched route and the API
 * key's id to the request log line (written by pino-http on the raw request when the answer is done).
 */
export function installRequestTracking(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  fastify.addHook('onSend', async (request, _reply, payload) => {
    const keyId = (request as FastifyRequest & { apiKey?: { keyId: string } }).apiKey?.keyId;
    (request.raw as LoggedRequest).logContext = { route: request.routeOptions.url, keyId };
    return payload;
  });
}
