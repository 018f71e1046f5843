import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { tracing, urlAttributes } from './tracing';

/** Probes and scrapes every few seconds would drown the requests worth following. */
const UNTRACED = /^\/(health\/|metrics(\?|$))/;

/**
 * One server span per request (http; named after the route template by installTracing) and a client
 * span per SQL statement (pg), sent over OTLP/HTTP with JSON. The URL's attributes are replaced by
 * urlAttributes (no query value, no key); statement values are never recorded (pg's default).
 * Metrics and logs stay Prometheus's and stdout's: the SDK exports neither.
 */
export function startTracing(): void {
  const sdk = new NodeSDK({
    ...(!process.env.OTEL_SERVICE_NAME && { serviceName: 'petstore-api' }),
    traceExporter: new OTLPTraceExporter(),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED.test(request.url ?? ''),
        startIncomingSpanHook: (request) => urlAttributes((request as { url?: string }).url),
        disableOutgoingRequestInstrumentation: true,
      }),
      // Statements of a request only: the pool's own connects and start-up work make no trace.
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
    ],
  });
  sdk.start();
  tracing.enabled = true;
  tracing.flush = () => sdk.shutdown();
}
