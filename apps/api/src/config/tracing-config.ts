import type { Environment } from './environment';
import { Variables, readEnvironment } from './read-environment';

/** OpenTelemetry traces, from the standard OTEL_* variables (read before the app's modules load). */
export interface TracingConfig {
  enabled: boolean;
  /** `OTEL_SERVICE_NAME`, default `petstore-api`. */
  serviceName: string;
  /** Where spans are sent (OTLP/HTTP, JSON): the traces URL itself. */
  tracesUrl?: string;
}

/**
 * For the traces' setup, which runs before loadConfig: the traces of `env`, with the problems of its
 * OTEL_* variables added to `problems` (loadConfig reports them, and stops the start).
 */
export function tracingConfig(env: Variables, problems: string[] = []): TracingConfig {
  const read = readEnvironment(env);
  problems.push(...read.problems.filter((problem) => problem.startsWith('OTEL_')));
  return tracingOf(read.environment);
}

/**
 * On when OTEL_TRACES_EXPORTER is `otlp`, or when it is unset and an OTLP endpoint names a collector;
 * off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. As the OTLP specification says, the
 * signal's own endpoint is used as is and the base one gets /v1/traces.
 */
export function tracingOf(environment: Environment): TracingConfig {
  const { OTEL_TRACES_EXPORTER: exporter, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: tracesEndpoint } = environment;
  const tracesUrl =
    tracesEndpoint ??
    (endpoint && `${endpoint.replace(/\/+$/, '')}/v1/traces`) ??
    (exporter === 'otlp' ? 'http://localhost:4318/v1/traces' : undefined);
  const enabled = !environment.OTEL_SDK_DISABLED && exporter !== 'none' && (exporter === 'otlp' || (endpoint ?? tracesEndpoint) !== undefined);
  return { enabled, serviceName: environment.OTEL_SERVICE_NAME, ...(enabled && { tracesUrl }) };
}
