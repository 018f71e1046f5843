import { readEnvFile } from '../config/read-environment';

/**
 * Imported first by the entry point: OpenTelemetry's NodeSDK patches http, Fastify's server and pg as
 * they load, so it starts before any of them. Traces are off, and the SDK never loaded, unless the
 * OTEL_* variables name an exporter or an OTLP endpoint; the SDK and the instrumentations read the rest
 * of OTEL_* themselves (OTEL_SDK_DISABLED, OTEL_SERVICE_NAME, OTEL_BSP_*, the sampler…).
 */
readEnvFile(); // once per process: loadConfig finds it read
const { OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT } = process.env;
if (OTEL_TRACES_EXPORTER ? OTEL_TRACES_EXPORTER !== 'none' : (OTEL_EXPORTER_OTLP_ENDPOINT ?? OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with traces on (1.3 MB of heap otherwise)
  (require('./tracing.sdk') as typeof import('./tracing.sdk')).startTracing();
}
