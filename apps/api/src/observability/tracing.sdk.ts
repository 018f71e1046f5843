import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { redactKeys } from '@petstore/http-errors/redact-keys';
import { tracing } from './tracing';

/** Probes and scrapes every few seconds would drown the requests worth following. */
const UNTRACED = /^\/(health\/|metrics(\?|$))/;

/** A span per request (http) and per SQL statement of a request (pg, never its values) over OTLP/HTTP; metrics and logs are not the SDK's. */
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
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
    ],
  });
  sdk.start();
  tracing.sdk = sdk;
}

/** The path cut at 200 characters and at most 8 query parameter names, never their values; anything key-shaped is written `pet_…`. */
export function urlAttributes(url: string | undefined): Record<string, string> {
  if (url === undefined) return {};
  const [rawPath, query] = url.split(/\?(.*)/s, 2);
  const path = redactKeys(rawPath);
  const params = query
    ?.split('&')
    .slice(0, 8)
    .map((pair) => `${redactKeys(pair.split('=', 1)[0]).slice(0, 64)}=REDACTED`);
  return { 'url.path': path.length > 200 ? `${path.slice(0, 200)}…` : path, ...(params && { 'url.query': params.join('&') }) };
}
