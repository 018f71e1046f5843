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
    /** Its operationId, as metrics and the key tool name it. */
    operation: string;
  };
}

/**
 * Deprecation (RFC 9745), Sunset (RFC 8594) and a successor Link go on every answer of a deprecated
 * route, errors included, so they are set in onSend rather than in the handler. The hook is attached
 * to the deprecated routes alone, with its header values computed once, so other routes pay nothing.
 */
export function installDeprecationHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- without it the config's type is not resolved
    const deprecation = (route.config as Partial<DeprecationConfig> | undefined)?.deprecation;
    if (!deprecation) return;
    const headers = {
      deprecation: `@${Math.floor(deprecation.since.getTime() / 1000)}`,
      sunset: deprecation.sunset.toUTCString(),
      link: `<${deprecation.successor}>; rel="successor-version"`,
    };
    const existing = route.onSend ? [route.onSend].flat() : [];
    route.onSend = [
      ...existing,
      (_request, reply, payload, done) => {
        reply.headers(headers);
        done(null, payload);
      },
    ];
  });
}
