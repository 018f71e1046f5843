import { context } from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { FastifyInstance } from 'fastify';
import { routeLabel } from './metrics';

/** The trace SDK when traces are on in this process: set once by tracing.setup, before the app's modules load. */
export const tracing: { sdk?: NodeSDK } = {};

/** Names the server span after the route as the document spells it (not @fastify/otel: spans per hook, raw URLs with keys); flushes on close. */
export function installTracing(fastify: FastifyInstance): void {
  const { sdk } = tracing;
  if (!sdk) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with traces on, as the SDK is
  const { RPCType, getRPCMetadata } = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  fastify.addHook('onRequest', (request, _reply, done) => {
    const template = request.routeOptions.url;
    const metadata = getRPCMetadata(context.active());
    if (template && metadata?.type === RPCType.HTTP) metadata.route = routeLabel(template);
    done();
  });
  fastify.addHook('onClose', () => sdk.shutdown());
}
