import type { FastifyInstance } from 'fastify';

/** Route config (set with @RouteConfig) of an operation that is deprecated. */
export interface DeprecationConfig {
  deprecation: {
    /** When the operation became deprecated. */
    since: Date;
    /** When it will be removed. */
    sunset: Date;
    /** The path of the operation that replaces it. */
    successor: string;
  };
}

/**
 * Deprecation (RFC 9745), Sunset (RFC 8594) and a successor Link go on every answer of a deprecated
 * route, errors included, so it is done in onSend rather than in the handler.
 */
export function installDeprecationHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    const config = request.routeOptions.config as Partial<DeprecationConfig> | undefined;
    const deprecation = config?.deprecation;
    if (deprecation) {
      reply.header('deprecation', `@${Math.floor(deprecation.since.getTime() / 1000)}`);
      reply.header('sunset', deprecation.sunset.toUTCString());
      reply.header('link', `<${deprecation.successor}>; rel="successor-version"`);
    }
    return payload;
  });
}
