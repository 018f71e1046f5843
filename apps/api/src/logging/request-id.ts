import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { redactSecrets } from './loggable-url';

export const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTED = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Fastify's `genReqId`: an incoming X-Request-Id that is safe to log and echo is kept, anything else
 * (a key among them: an id is logged and echoed) is replaced by a new UUID. pino-http reuses the id.
 */
export function requestIdGenerator(apiKeys: readonly string[]): (raw: IncomingMessage) => string {
  return (raw) => {
    const incoming = raw.headers[REQUEST_ID_HEADER];
    return typeof incoming === 'string' && ACCEPTED.test(incoming) && redactSecrets(incoming, apiKeys) === incoming ? incoming : randomUUID();
  };
}
