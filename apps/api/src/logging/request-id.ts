import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTED = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Fastify's `genReqId`: an incoming X-Request-Id that is safe to log and echo is kept, anything else
 * is replaced by a new UUID.
 */
export function requestIdOf(raw: IncomingMessage): string {
  const incoming = raw.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && ACCEPTED.test(incoming) ? incoming : randomUUID();
}
