import type { AuthConfig } from './groups/auth.config';
import type { DatabaseConfig } from './groups/database.config';
import type { NodeEnv } from './groups/environment.config';
import type { HttpConfig } from './groups/http.config';
import type { LoggingConfig } from './groups/logging.config';
import type { MetricsConfig } from './groups/metrics.config';
import type { OpenApiConfig } from './groups/openapi.config';
import type { RateLimitConfig } from './groups/rate-limit.config';
import type { TracingConfig } from './tracing-config';

/** The service's configuration, read from the environment once at start, by concern (see groups/). */
export interface AppConfig {
  nodeEnv: NodeEnv;
  http: HttpConfig;
  database: DatabaseConfig;
  auth: AuthConfig;
  rateLimit: RateLimitConfig;
  logging: LoggingConfig;
  metrics: MetricsConfig;
  /** OpenTelemetry traces: off unless an OTLP endpoint or exporter is named. See tracingConfig. */
  tracing: TracingConfig;
  openApi: OpenApiConfig;
  /**
   * What production still lacks (each with the command that fixes it). Not thrown here: whether an API
   * key exists is known only once the database is open, and every demand is reported at once then.
   */
  productionDemands: string[];
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * `service` (default): everything the service needs. `tool`: the key tool, which signs no cursor, so the
 * service's production demand for CURSOR_SECRET does not apply to it.
 */
export type ConfigPurpose = 'service' | 'tool';
