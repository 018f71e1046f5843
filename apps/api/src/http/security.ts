import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmetHeaders from 'helmet';
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
 * Security headers (helmet's defaults: CSP, HSTS, nosniff, frame and referrer policies …) on every
 * answer, errors and docs included; Swagger UI loads only its own scripts, so the default CSP holds.
 * CORS is off unless CORS_ORIGINS names the origins allowed to call the API from a browser.
 */
export async function installSecurity(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  await app.register(helmet, { global: true });
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

const setSecurityHeaders = helmetHeaders();

/** The same headers for answers written before any hook runs (router errors). */
export function addSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  setSecurityHeaders(request.raw, reply.raw, () => undefined);
}
