import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DomainError, mapError, sendError } from '@petstore/http-errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { REQUEST_ID_HEADER } from '../logging/request-id';

/**
 * Security headers (helmet's defaults: CSP, HSTS, nosniff, frame and referrer policies …) on every
 * answer, errors and docs included; Swagger UI loads only its own scripts, so the strict CSP holds.
 * What depends on TLS is sent only over TLS (see headersFor). Each set is computed once.
 */
export function installSecurityHeaders(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      reply.headers(headersFor(request));
      if (request.headers.host === undefined && request.raw.httpVersionMinor !== 0) return refuseWithoutHost(request, reply);
      done();
    });
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

/** The headers for answers written outside Fastify (see parser-errors.ts): a raw socket, read as plain HTTP. */
export function securityHeaders(): Record<string, string> {
  return PLAIN_HEADERS;
}

/** The same headers for answers written before any hook runs (router errors). */
export function addSecurityHeaders(reply: FastifyReply): void {
  reply.headers(headersFor(reply.request));
}
