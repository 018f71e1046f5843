import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { AuthConfig } from './groups/auth.config';
import { DatabaseConfig } from './groups/database.config';
import { EnvironmentConfig } from './groups/environment.config';
import { HttpConfig } from './groups/http.config';
import { LoggingConfig } from './groups/logging.config';
import { MetricsConfig } from './groups/metrics.config';
import { OpenApiConfig } from './groups/openapi.config';
import { RateLimitConfig } from './groups/rate-limit.config';
import { AppConfig, ConfigError, ConfigPurpose } from './app-config';
import { crossVariableRules } from './production-rules';
import { readGroup } from './read-group';
import { tracingConfig } from './tracing-config';

export { APP_CONFIG, ConfigError } from './app-config';
export type { AppConfig, ConfigPurpose } from './app-config';

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
