import { readEnvFile } from '../config/config';

// Imported first by the entry point, as NodeSDK patches http and pg as they load; it reads the rest of OTEL_* itself.
readEnvFile(); // once per process: loadConfig finds it read
const { OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT } = process.env;
if (OTEL_TRACES_EXPORTER ? OTEL_TRACES_EXPORTER !== 'none' : (OTEL_EXPORTER_OTLP_ENDPOINT ?? OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with traces on
  (require('./tracing.sdk') as typeof import('./tracing.sdk')).startTracing();
}
