import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyHelmet from '@fastify/helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** Over plain HTTP, no HSTS nor `upgrade-insecure-requests`: a browser would go to an https that is not there. */
const PLAIN: HelmetOptions = { strictTransportSecurity: false, contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } };
/** Over TLS: helmet's defaults, HSTS and `upgrade-insecure-requests` included. */
const TLS: HelmetOptions = { strictTransportSecurity: {}, contentSecurityPolicy: {} };

/**
 * Helmet's headers on every answer, errors and docs included; a request that came over TLS (on the socket,
 * or `X-Forwarded-Proto: https` from a TRUST_PROXY proxy: request.protocol reads both) gets the TLS set.
 */
export async function installSecurityHeaders(app: NestFastifyApplication): Promise<void> {
  await app.register(fastifyHelmet, PLAIN);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      if (request.protocol === 'https') reply.helmet(TLS);
      done();
    });
}

const plainHelmet = helmet(PLAIN);
const tlsHelmet = helmet(TLS);

/** The same headers on answers of Fastify's router, which come before any hook (frameworkErrors). */
export function addSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  (request.protocol === 'https' ? tlsHelmet : plainHelmet)(request.raw, reply.raw, () => undefined);
}

/** The plain set as literal headers, for what Node's parser refuses before any response exists (parser-errors.ts). */
export const PLAIN_SECURITY_HEADERS: Record<string, string> = {};
const collect = { setHeader: (name: string, value: string) => (PLAIN_SECURITY_HEADERS[name.toLowerCase()] = value), removeHeader: () => undefined };
plainHelmet({} as IncomingMessage, collect as unknown as ServerResponse, () => undefined);
