import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/config';

/** The largest request body read, in bytes (json-body.ts answers 413 above it). */
export const BODY_LIMIT_BYTES = 64 * 1024;
/** Requests one connection may carry (countRequest closes it after the last). */
const MAX_REQUESTS_PER_CONNECTION = 10_000;

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
    // Node then answers `Connection: close` (and `Keep-Alive: max=` on the others); countRequest closes the connection.
    maxRequestsPerSocket: MAX_REQUESTS_PER_CONNECTION,
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

const requestsOn = new WeakMap<Socket, number>();

/**
 * Counts a request on its connection (countRequests' hook; frameworkErrors for the router's errors), and sets `Connection: close`
 * on the last one's answer, so that Node closes the connection after it: at maxRequestsPerSocket Node alone keeps the
 * connection open, and answers every later request on it a bare 503 (no Error body), for ever to a client that ignores the close.
 */
export function countRequest(request: FastifyRequest, reply: FastifyReply): void {
  const socket = request.raw.socket;
  const count = (requestsOn.get(socket) ?? 0) + 1;
  requestsOn.set(socket, count);
  if (count >= MAX_REQUESTS_PER_CONNECTION) reply.header('connection', 'close');
}

export function countRequests(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    countRequest(request, reply);
    done();
  });
}
