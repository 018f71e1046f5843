import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DomainError, mapError, sendError } from '@petstore/http-errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { AppConfig } from '../config/config';
import { REQUEST_ID_HEADER } from '../logging/request-logging';

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

/**
 * Security headers (helmet's defaults: CSP, HSTS, nosniff, frame and referrer policies …) on every
 * answer, errors and docs included; Swagger UI loads only its own scripts, so the strict CSP holds.
 * What depends on TLS is sent only over TLS (see headersFor). Each set is computed once.
 * CORS is off unless CORS_ORIGINS names the origins allowed to call the API from a browser.
 */
export async function installSecurity(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      reply.headers(headersFor(request));
      if (request.headers.host === undefined && request.raw.httpVersionMinor !== 0) return refuseWithoutHost(request, reply);
      done();
    });
  if (config.http.corsOrigins.length > 0) {
    const options = {
      origin: config.http.corsOrigins,
      methods: ['GET', 'POST'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
      exposedHeaders: ['Location', 'Link', 'Deprecation', 'Sunset', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'X-Request-Id'],
      maxAge: 600,
    };
    // An OPTIONS that is no preflight is an API request like any other (405 with the Error body), not
    // the plugin's text/plain 400 "Invalid Preflight Request".
    const notPreflight = { origin: false };
    await app.register(cors, {
      delegator: (request: FastifyRequest, callback: (error: Error | null, options: object) => void) =>
        callback(null, request.method === 'OPTIONS' && !isPreflight(request) ? notPreflight : options),
    });
  }
}

function isPreflight(request: FastifyRequest): boolean {
  return request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;
}

/**
 * HTTP/1.1 requires Host (RFC 9112 §3.2): a request without it gets a 400 with the Error body and the
 * request id (Node's own answer had neither), and is logged and counted like every answer.
 */
function refuseWithoutHost(request: FastifyRequest, reply: FastifyReply): void {
  reply.header(REQUEST_ID_HEADER, request.id);
  sendError(reply, mapError(new DomainError('malformed_request', 'The request has no Host header'), request));
}

/** The headers helmet's middleware sets with these options, collected once from a stand-in response. */
function helmetHeaders(options?: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = { setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = String(value)), removeHeader: () => undefined };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
}

/** Over TLS: helmet's defaults, HSTS and `upgrade-insecure-requests` included. */
const TLS_HEADERS = helmetHeaders();
/**
 * Over plain HTTP: `upgrade-insecure-requests` would make a browser at http://<any name but localhost>
 * fetch every asset over an https that is not there (Swagger UI a blank page), and HSTS is not true of
 * a plain connection (browsers ignore it there anyway).
 */
const PLAIN_HEADERS = helmetHeaders({ strictTransportSecurity: false, contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });

/**
 * The set for how this request reached us: TLS on the socket, or `X-Forwarded-Proto: https` from a
 * proxy listed in TRUST_PROXY that terminated TLS (Fastify's request.protocol reads both).
 */
function headersFor(request: FastifyRequest): Record<string, string> {
  return request.protocol === 'https' ? TLS_HEADERS : PLAIN_HEADERS;
}

/** The headers for answers written outside Fastify (see client-errors.ts): a raw socket, read as plain HTTP. */
export function securityHeaders(): Record<string, string> {
  return PLAIN_HEADERS;
}

/** The same headers for answers written before any hook runs (router errors). */
export function addSecurityHeaders(reply: FastifyReply): void {
  reply.headers(headersFor(reply.request));
}
