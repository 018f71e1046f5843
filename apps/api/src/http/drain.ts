import { DomainError, mapError, sendError } from '@petstore/http-errors';
import type { FastifyInstance } from 'fastify';

export class ShuttingDownError extends DomainError {
  constructor() {
    super('service_unavailable', 'The service is shutting down; retry the request');
  }
}

/**
 * While the server drains (SIGTERM), it stops listening and requests in flight finish; a request that
 * still arrives on an open keep-alive connection is refused with the Error body (Fastify closes that
 * connection after the answer) instead of Fastify's own 503 body.
 */
export function installDrainRefusal(fastify: FastifyInstance): void {
  let draining = false;
  fastify.addHook('preClose', async () => {
    draining = true;
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (draining) sendError(reply, mapError(new ShuttingDownError(), request));
    else done();
  });
}
