import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { AuthConfig } from './groups/auth.config';
import { DatabaseConfig } from './groups/database.config';
import { EnvironmentConfig, NodeEnv } from './groups/environment.config';
import { HttpConfig } from './groups/http.config';
import { LoggingConfig } from './groups/logging.config';
import { MetricsConfig } from './groups/metrics.config';
import { OpenApiConfig } from './groups/openapi.config';
import { RateLimitConfig } from './groups/rate-limit.config';
import { crossVariableRules } from './production-rules';
import { readGroup } from './read-group';
import { TracingConfig, tracingConfig } from './tracing-config';

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

/** Loads `.env` (when present) under the real environment, then validates every variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), purpose: ConfigPurpose = 'service'): AppConfig {
  if (env === process.env && existsSync(resolve(cwd, '.env'))) process.loadEnvFile(resolve(cwd, '.env'));
  const problems: string[] = [];
  const { nodeEnv } = readGroup(EnvironmentConfig, env, problems);
  const config: AppConfig = {
    nodeEnv,
    http: readGroup(HttpConfig, env, problems),
    database: readGroup(DatabaseConfig, env, problems),
    auth: readGroup(AuthConfig, env, problems),
    rateLimit: readGroup(RateLimitConfig, env, problems),
    logging: readGroup(LoggingConfig, env, problems),
    metrics: readGroup(MetricsConfig, env, problems),
    tracing: tracingConfig(env, problems),
    openApi: readGroup(OpenApiConfig, env, problems),
    productionDemands: [],
  };
  // Defaults that depend on something else than the variable itself.
  config.logging.level ??= nodeEnv === 'test' ? 'warn' : 'info';
  if (!isAbsolute(config.database.dataDir)) config.database.dataDir = resolve(cwd, config.database.dataDir);
  config.productionDemands = crossVariableRules(config, env, purpose, problems);
  if (problems.length > 0) throw new ConfigError([...problems, ...config.productionDemands]);
  return config;
}
