import type { Server } from 'node:http';
import type { FastifyHttpOptions } from 'fastify';
import { AppConfig } from '../config/config';

/** The largest request body read, in bytes (json-body.ts answers 413 above it). */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** Fastify's own bounds of the HTTP server, so that a slow or huge request cannot hold it. */
export function serverLimits(config: AppConfig) {
  return {
    bodyLimit: BODY_LIMIT_BYTES,
    // The whole request (headers and body) must arrive within this time, or the server answers 408.
    requestTimeout: config.http.requestTimeoutMs,
    // A socket with no activity at all is closed after this.
    connectionTimeout: config.http.requestTimeoutMs * 3,
    // Longer than clients and the balancer keep an idle connection (4-5 s): the client closes first, so the
    // server never closes a connection just as a request is sent on it.
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    // Then Node answers `Connection: close`: no single connection holds the process for ever.
    maxRequestsPerSocket: 10_000,
    http: {
      maxHeaderSize: 16 * 1024,
      // A request without Host gets the Error body (request-head.ts), not Node's bare 400.
      requireHostHeader: false,
      // How often Node checks requestTimeout / headersTimeout (its default is 30 s).
      connectionsCheckingInterval: 1000,
    },
  } satisfies FastifyHttpOptions<Server>;
}

/** Node's bounds that Fastify has no option for: MAX_CONNECTIONS, and headers within REQUEST_TIMEOUT_MS too. */
export function limitServer(server: Server, config: AppConfig): void {
  server.maxConnections = config.http.maxConnections;
  server.headersTimeout = config.http.requestTimeoutMs;
}
