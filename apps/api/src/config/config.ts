import { isAbsolute, resolve } from 'node:path';
import { AppConfig, ConfigError, ConfigPurpose } from './app-config';
import { Environment } from './environment';
import { productionDemands } from './production-rules';
import { Variables, readEnvFile, readEnvironment } from './read-environment';
import { DEV_CURSOR_SECRET } from './secret-rules';
import { tracingOf } from './tracing-config';

export { APP_CONFIG, ConfigError } from './app-config';
export type { AppConfig, ConfigPurpose } from './app-config';

/**
 * The configuration from `env` (default: the process's, with `.env` read once under it), validated once:
 * every invalid value and every production demand is thrown at once in a ConfigError.
 */
export function loadConfig(env: Variables = process.env, cwd = process.cwd(), purpose: ConfigPurpose = 'service'): AppConfig {
  if (env === process.env) readEnvFile(cwd);
  const { environment, problems } = readEnvironment(env);
  const config = appConfigOf(environment, cwd, purpose === 'service' && environment.NODE_ENV === 'production');
  if (problems.length > 0) throw new ConfigError([...problems, ...config.productionDemands]);
  return config;
}

/** `serving`: the service in production, which has no defaults for its secrets and its database. */
function appConfigOf(environment: Environment, cwd: string, serving: boolean): AppConfig {
  const { NODE_ENV, DATA_DIR, CURSOR_SECRET } = environment;
  return {
    nodeEnv: NODE_ENV,
    http: {
      host: environment.HOST,
      port: environment.PORT,
      drainDelayMs: environment.DRAIN_DELAY_MS,
      corsOrigins: [...environment.CORS_ORIGINS],
      requestTimeoutMs: environment.REQUEST_TIMEOUT_MS,
      maxConnections: environment.MAX_CONNECTIONS,
      keepAliveTimeoutMs: environment.KEEP_ALIVE_TIMEOUT_MS,
      trustProxy: environment.TRUST_PROXY,
    },
    database: {
      url: environment.DATABASE_URL,
      dataDir: isAbsolute(DATA_DIR) ? DATA_DIR : resolve(cwd, DATA_DIR),
      poolSize: environment.DATABASE_POOL_SIZE,
      pooling: environment.DATABASE_POOLING,
      directUrl: environment.DATABASE_DIRECT_URL,
    },
    auth: { apiKeys: [...environment.API_KEYS], cursorSecrets: CURSOR_SECRET.length > 0 || serving ? [...CURSOR_SECRET] : [DEV_CURSOR_SECRET] },
    rateLimit: { perMinute: environment.RATE_LIMIT_PER_MINUTE, redisUrl: environment.REDIS_URL },
    logging: { level: environment.LOG_LEVEL ?? (NODE_ENV === 'test' ? 'warn' : 'info'), format: environment.LOG_FORMAT },
    metrics: { enabled: environment.METRICS_ENABLED, token: environment.METRICS_TOKEN },
    tracing: tracingOf(environment),
    openApi: { publicBaseUrl: environment.PUBLIC_BASE_URL, stagingBaseUrl: environment.STAGING_BASE_URL },
    productionDemands: serving ? productionDemands(environment) : [],
  };
}
