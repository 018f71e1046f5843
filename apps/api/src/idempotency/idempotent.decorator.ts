import { AsyncLocalStorage } from 'node:async_hooks';
import { CallHandler, ExecutionContext, UseInterceptors } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { defer, lastValueFrom } from 'rxjs';
import { readJsonBody } from '../http/json-body-values';

/** What runs a keyed request once per key: IdempotentRequests (declared here, so that neither file imports the other). */
export interface IdempotentRunner {
  run<T>(request: FastifyRequest, reply: FastifyReply, operation: () => Promise<T>): Promise<T>;
}

/** Each app's IdempotentRequests, found from the Fastify instance a request arrives on. */
const perServer = new WeakMap<FastifyInstance, IdempotentRunner>();

export function registerIdempotentRequests(server: FastifyInstance, requests: IdempotentRunner): void {
  perServer.set(server, requests);
}

/**
 * Route configuration: a POST with an Idempotency-Key runs once per key and replays its answer (see
 * IdempotentRequests). Runs after authentication and body parsing, around the handler; write it
 * above any decorator that sets a header the replay must repeat (Location). The route's service
 * stores its effect and the answer in one transaction (`recordAnswer`), under `idempotencyClaim()`.
 */
export function Idempotent(): MethodDecorator {
  return UseInterceptors({
    intercept: (context: ExecutionContext, next: CallHandler) => {
      const request = context.switchToHttp().getRequest<FastifyRequest>();
      const requests = perServer.get(request.server);
      if (!requests) throw new Error('@Idempotent() on a route of an app without the IdempotencyModule');
      // Interceptors run before the parameters are read: the body is hashed, so it is parsed here.
      readJsonBody(request);
      const reply = context.switchToHttp().getResponse<FastifyReply>();
      return defer(() => requests.run(request, reply, () => lastValueFrom(next.handle())));
    },
  });
}

/** The Idempotency-Key a keyed request's operation runs under. */
export interface IdempotencyClaim {
  apiKeyId: string;
  key: string;
  requestHash: string;
  /** Set by the service once its statement stored the effect and the answer together. */
  recorded: boolean;
}

const claims = new AsyncLocalStorage<IdempotencyClaim>();

/** Runs a keyed request's operation; its service finds the claim with `idempotencyClaim()`. */
export function runClaimed<T>(claim: IdempotencyClaim, operation: () => Promise<T>): Promise<T> {
  return claims.run(claim, operation);
}

/** The claim of the keyed request being served, if any. */
export function idempotencyClaim(): IdempotencyClaim | undefined {
  return claims.getStore();
}
