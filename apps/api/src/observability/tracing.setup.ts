import { readEnvFile } from '../config/read-environment';
import { tracingConfig } from '../config/tracing-config';
import { tracing, urlAttributes } from './tracing';

/**
 * Imported first by the entry point: the HTTP instrumentation must be in place before Fastify and
 * Node's http module are loaded. Off unless the OTEL_* variables ask for traces (see tracingConfig);
 * then the SDK is loaded, and only then. A bad value is reported by loadConfig, which stops the start.
 */
readEnvFile(); // once per process: loadConfig finds it read
const problems: string[] = [];
const config = tracingConfig(process.env, problems);
if (config.enabled && problems.length === 0) start(config.serviceName, config.tracesUrl!);

function start(serviceName: string, url: string): void {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { NodeTracerProvider, BatchSpanProcessor } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');

  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  // The global provider, AsyncLocalStorage context and the W3C traceparent/baggage propagators.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes every few seconds would drown the requests worth following.
        ignoreIncomingRequestHook: (request) => /^\/(health\/|metrics(\?|$))/.test(request.url ?? ''),
        startIncomingSpanHook: (request) => urlAttributes((request as { url?: string }).url),
        disableOutgoingRequestInstrumentation: true,
      }),
    ],
  });
  tracing.enabled = true;
  tracing.flush = () => provider.forceFlush();
}
