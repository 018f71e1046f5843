import { isAbsolute, resolve } from 'node:path';
import { Environment } from './environment';
import { productionDemands } from './production-rules';
import { DEV_CURSOR_SECRET } from './secret-rules';
import { Variables, readEnvFile, readEnvironment } from './read-environment';

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** `tool`: the key tool and migrate, which sign no cursor and serve nothing: production's demands are not theirs. */
export type ConfigPurpose = 'service' | 'tool';
export type AppConfig = ReturnType<typeof appConfigOf>;

/**
 * The configuration from `env` (default: the process's, with `.env` under it), validated once: every
 * invalid value is thrown at once in a ConfigError, with production's demands.
 */
export function loadConfig(env: Variables = process.env, cwd = process.cwd(), purpose: ConfigPurpose = 'service'): AppConfig {
  if (env === process.env) readEnvFile(cwd);
  const { environment, problems } = readEnvironment(env);
  const config = appConfigOf(environment, cwd, purpose === 'service' && environment.NODE_ENV === 'production');
  if (problems.length > 0) throw new ConfigError([...problems, ...config.productionDemands]);
  return config;
}

/** `serving`: the service in production, which has no defaults for its secrets and its database. */
function appConfigOf(env: Environment, cwd: string, serving: boolean) {
  return {
    nodeEnv: env.NODE_ENV,
    http: {
      host: env.HOST,
      port: env.PORT,
      drainDelayMs: env.DRAIN_DELAY_MS,
      corsOrigins: env.CORS_ORIGINS,
      requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
      maxConnections: env.MAX_CONNECTIONS,
      keepAliveTimeoutMs: env.KEEP_ALIVE_TIMEOUT_MS,
      trustProxy: env.TRUST_PROXY,
    },
    // No url: the embedded PostgreSQL in dataDir.
    database: {
      url: env.DATABASE_URL,
      dataDir: isAbsolute(env.DATA_DIR) ? env.DATA_DIR : resolve(cwd, env.DATA_DIR),
      poolSize: env.DATABASE_POOL_SIZE,
      pooling: env.DATABASE_POOLING,
      directUrl: env.DATABASE_DIRECT_URL,
    },
    // The first cursor secret signs, every one verifies.
    auth: { apiKeys: env.API_KEYS, cursorSecrets: env.CURSOR_SECRET.length > 0 || serving ? env.CURSOR_SECRET : [DEV_CURSOR_SECRET] },
    // perMinute 0: no rate limit.
    rateLimit: { perMinute: env.RATE_LIMIT_PER_MINUTE, redisUrl: env.REDIS_URL },
    // No format: pretty on a terminal, else JSON.
    logging: { level: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'warn' : 'info'), format: env.LOG_FORMAT },
    metrics: { enabled: env.METRICS_ENABLED, token: env.METRICS_TOKEN },
    openApi: { publicBaseUrl: env.PUBLIC_BASE_URL, stagingBaseUrl: env.STAGING_BASE_URL },
    // Not thrown here: whether the database holds an API key is known only once it is open (see ApiKeysService).
    productionDemands: serving ? productionDemands(env) : [],
  };
}
