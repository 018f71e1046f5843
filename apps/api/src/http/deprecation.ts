import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Route config (set with @RouteConfig) of an operation that is deprecated. */
export interface DeprecationConfig {
  /** `successor`: the path of the operation that replaces it; `operation`: its operationId (metrics, the key tool). */
  deprecation: { since: Date; sunset: Date; successor: string; operation: string };
}

/**
 * Deprecation (RFC 9745), Sunset (RFC 8594) and a successor Link on every answer of a deprecated route,
 * errors included, and `called(operation)` told of each answered call: hooks of those routes alone, so other routes pay nothing.
 */
export function installDeprecation(fastify: FastifyInstance, called: (operation: string) => (request: FastifyRequest) => void): void {
  fastify.addHook('onRoute', (route) => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- without it the config's type is not resolved
    const deprecation = (route.config as Partial<DeprecationConfig> | undefined)?.deprecation;
    if (!deprecation) return;
    const headers = {
      deprecation: `@${Math.floor(deprecation.since.getTime() / 1000)}`,
      sunset: deprecation.sunset.toUTCString(),
      link: `<${deprecation.successor}>; rel="successor-version"`,
    };
    const call = called(deprecation.operation);
    // A path the route matches but Nest refuses (an empty id, `/v1/pets/`) is answered by the 404 handler: no operation.
    route.onSend = [
      ...[route.onSend ?? []].flat(),
      (request, reply, payload, done) => {
        if (!request.is404) reply.headers(headers);
        done(null, payload);
      },
    ];
    route.onResponse = [
      ...[route.onResponse ?? []].flat(),
      (request, _reply, done) => {
        if (!request.is404) call(request);
        done();
      },
    ];
  });
}
