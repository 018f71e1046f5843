import { TracingVariables } from './groups/tracing.config';
import { Environment, readGroup } from './read-group';

/** OpenTelemetry traces, from the standard OTEL_* variables (read before the app's modules load). */
export interface TracingConfig {
  enabled: boolean;
  /** `OTEL_SERVICE_NAME`, default `petstore-api`. */
  serviceName: string;
  /** Where spans are sent (OTLP/HTTP, JSON): the traces URL itself. */
  tracesUrl?: string;
}

const OTLP_TRACES_PATH = 'v1/traces';

/**
 * Traces follow the OpenTelemetry variables: on when OTEL_TRACES_EXPORTER is `otlp`, or when it is unset
 * and OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) names a collector; off with
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. Only OTLP over HTTP with JSON is sent.
 * Called by the tracing setup before anything else loads, and by loadConfig, which reports the problems.
 */
export function tracingConfig(env: Environment, problems: string[] = []): TracingConfig {
  const { exporter, endpoint, tracesEndpoint, sdkDisabled, serviceName } = readGroup(TracingVariables, env, problems);
  // As the OTLP specification says: the signal's own variable is used as is, the base gets /v1/traces.
  const tracesUrl =
    tracesEndpoint ??
    (endpoint && `${endpoint.replace(/\/+$/, '')}/${OTLP_TRACES_PATH}`) ??
    (exporter === 'otlp' ? `http://localhost:4318/${OTLP_TRACES_PATH}` : undefined);
  const enabled = !sdkDisabled && exporter !== 'none' && (exporter === 'otlp' || (endpoint ?? tracesEndpoint) !== undefined);
  return { enabled, serviceName, ...(enabled && { tracesUrl }) };
}
