import { context } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { redactKeys } from '../auth/redact-keys';
import { routeLabel } from './route-label';

/** Whether traces are on in this process: set once by tracing.setup, before the app's modules load. */
export const tracing = { enabled: false, flush: (): Promise<void> => Promise.resolve() };

/**
 * The HTTP instrumentation opens the request's span before Fastify routes it. Once the route is known,
 * this names the span after its template as the OpenAPI document spells it (`GET /v1/pets/{petId}`),
 * through the instrumentation's route metadata. Spans are flushed when the server closes.
 *
 * Not @fastify/otel: it adds a span per request (and per hook and handler) under the server span, names
 * routes in Fastify's syntax (`/v1/pets/:petId`), and writes the raw URL, query and keys included, as
 * its span's `url.path`; the route is all the server span needed from Fastify.
 */
export function installTracing(fastify: FastifyInstance): void {
  if (!tracing.enabled) return;
  // Loaded only with traces on, as the SDK is (tracing.setup): 1.3 MB of heap otherwise.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand
  const { RPCType, getRPCMetadata } = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  fastify.addHook('onRequest', (request, _reply, done) => {
    const template = request.routeOptions.url;
    const metadata = getRPCMetadata(context.active());
    if (template && metadata?.type === RPCType.HTTP) metadata.route = routeLabel(template);
    done();
  });
  fastify.addHook('onClose', async () => tracing.flush());
}

const MAX_PATH = 200;

/**
 * The attributes that replace the HTTP instrumentation's own for a request's URL: the query keeps its
 * parameter names but none of their values (a cursor, or a key a client put in `access_token`), and the
 * path is cut at 200 characters, as in the logs; anything shaped like a key is written `pet_…` (a client
 * may put one in the path or in a parameter's name).
 */
export function urlAttributes(url: string | undefined): Record<string, string> {
  if (url === undefined) return {};
  const question = url.indexOf('?');
  const path = redactKeys(question === -1 ? url : url.slice(0, question));
  const attributes: Record<string, string> = { 'url.path': path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path };
  if (question !== -1) {
    attributes['url.query'] = url
      .slice(question + 1)
      .split('&')
      .slice(0, 8)
      .map((pair) => `${redactKeys(pair.split('=', 1)[0]).slice(0, 64)}=REDACTED`)
      .join('&');
  }
  return attributes;
}
