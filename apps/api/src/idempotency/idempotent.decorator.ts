import type { FastifyInstance } from 'fastify';
import { aroundHandler } from '../http/around-handler';
import type { IdempotentRequests } from './idempotent-requests';

/** Each app's IdempotentRequests, found from the Fastify instance a request arrives on. */
const perServer = new WeakMap<FastifyInstance, IdempotentRequests>();

export function registerIdempotentRequests(server: FastifyInstance, requests: IdempotentRequests): void {
  perServer.set(server, requests);
}

/**
 * Route configuration: a POST with an Idempotency-Key runs once per key and replays its answer (see
 * IdempotentRequests). Runs after authentication and body validation, around the handler; write it
 * above any decorator that sets a header the replay must repeat (Location).
 */
export function Idempotent(): MethodDecorator {
  return aroundHandler((request, reply, handler) => {
    const requests = perServer.get(request.server);
    if (!requests) throw new Error('@Idempotent() on a route of an app without the IdempotencyModule');
    return requests.run(request, reply, handler);
  });
}
