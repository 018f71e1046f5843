import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import helmet from 'helmet';
import { AppConfig } from '../config/config';

/** Header and time limits of the HTTP server, so that a slow or huge request cannot hold it. */
export function serverLimits(config: AppConfig) {
  return {
    // The whole request (headers and body) must arrive within this time, or the server answers 408.
    requestTimeout: config.requestTimeoutMs,
    // A socket with no activity at all is closed after this.
    connectionTimeout: config.requestTimeoutMs * 3,
    // Idle keep-alive connections are closed after 5 s (below usual load balancer idle timeouts).
    keepAliveTimeout: 5000,
    http: {
      maxHeaderSize: 16 * 1024,
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
  server.requestTimeout = config.requestTimeoutMs;
  server.headersTimeout = config.requestTimeoutMs;
}

/**
 * Security headers (helmet's defaults: CSP, HSTS, nosniff, frame and referrer policies …) on every
 * answer, errors and docs included; Swagger UI loads only its own scripts, so the default CSP holds.
 * helmet's defaults are the same for every request, so they are computed once and set in one call.
 * CORS is off unless CORS_ORIGINS names the origins allowed to call the API from a browser.
 */
export async function installSecurity(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (_request, reply, done) => {
      reply.headers(SECURITY_HEADERS);
      done();
    });
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      methods: ['GET', 'POST'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
      exposedHeaders: ['Location', 'Link', 'Deprecation', 'Sunset', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'X-Request-Id'],
      maxAge: 600,
    });
  }
}

/** The headers helmet's middleware sets, collected once from a stand-in response. */
const SECURITY_HEADERS: Record<string, string> = (() => {
  const headers: Record<string, string> = {};
  const response = { setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = String(value)), removeHeader: () => undefined };
  helmet()({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
})();

/** The headers, for answers written outside Fastify (see client-errors.ts). */
export function securityHeaders(): Record<string, string> {
  return SECURITY_HEADERS;
}

/** The same headers for answers written before any hook runs (router errors). */
export function addSecurityHeaders(reply: FastifyReply): void {
  reply.headers(SECURITY_HEADERS);
}
