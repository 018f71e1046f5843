import type { Server } from 'node:http';
import { AppConfig } from '../config/config';

/** Header and time limits of the HTTP server, so that a slow or huge request cannot hold it. */
export function serverLimits(config: AppConfig) {
  return {
    // The whole request (headers and body) must arrive within this time, or the server answers 408.
    requestTimeout: config.http.requestTimeoutMs,
    // A socket with no activity at all is closed after this.
    connectionTimeout: config.http.requestTimeoutMs * 3,
    // An idle keep-alive connection is kept longer than its clients and the balancer keep theirs
    // (HAProxy's `timeout http-keep-alive`, Node's agent: 4-5 s): the client closes first, so the server
    // never closes a connection just as a request is sent on it (a reset, "other side closed").
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    http: {
      maxHeaderSize: 16 * 1024,
      // A request without Host is answered in installSecurity's hook, with the Error body, not Node's bare 400.
      requireHostHeader: false,
      // How often Node checks requestTimeout / headersTimeout (its default is 30 s).
      connectionsCheckingInterval: 1000,
    },
  };
}

/**
 * Makes REQUEST_TIMEOUT_MS hold for the body too. Fastify sets requestTimeout only after Node's server
 * exists, so Node kept its 60 s headersTimeout above it and the body of a request had no bound that
 * held: a body sent a byte at a time kept the connection for minutes.
 */
export function applyRequestTimeouts(server: Server, config: AppConfig): void {
  server.requestTimeout = config.http.requestTimeoutMs;
  server.headersTimeout = config.http.requestTimeoutMs;
}
