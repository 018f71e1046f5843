import cors from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../config/config';

/** CORS is off unless CORS_ORIGINS names the origins allowed to call the API from a browser. */
export async function installCors(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  if (config.http.corsOrigins.length === 0) return;
  const options = {
    origin: config.http.corsOrigins,
    methods: ['GET', 'POST'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
    exposedHeaders: [
      ...['Location', 'Link', 'Deprecation', 'Sunset', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'X-Request-Id'],
      ...['Idempotent-Replayed', 'WWW-Authenticate'],
    ],
    maxAge: 600,
  };
  await app.register(cors, {
    delegator: (request: FastifyRequest, callback: (error: Error | null, options: object) => void) => {
      const { origin, 'access-control-request-method': requestMethod } = request.headers;
      // An OPTIONS that is no preflight is an API request like any other (405 with the Error body), not
      // the plugin's text/plain 400 "Invalid Preflight Request".
      const notPreflight = request.method === 'OPTIONS' && (!origin || !requestMethod); // an empty header too
      callback(null, notPreflight ? { origin: false } : options);
    },
  });
}
