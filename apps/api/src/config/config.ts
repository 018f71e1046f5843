import { isAbsolute, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { config as readDotenv } from 'dotenv';
import { validateSync } from 'class-validator';
import { Environment } from './environment';
import { DEV_CURSOR_SECRET } from './secret-rules';

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Variables = Record<string, string | undefined>;
export type AppConfig = ReturnType<typeof appConfigOf>;

/** Every invalid value of `env` (default: the process's, over `.env`) at once; a `tool` (keys, migrate) serves nothing: no production demands. */
export function loadConfig(env: Variables = process.env, cwd = process.cwd(), purpose: 'service' | 'tool' = 'service'): AppConfig {
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

/** The Environment of `env` (an empty variable is unset: its default then) and every problem, one a line, each naming its variable. */
function readEnvironment(env: Variables): { environment: Environment; problems: string[] } {
  const given = Object.fromEntries(Object.keys(new Environment()).flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
  const environment = plainToInstance(Environment, given, { exposeDefaultValues: true });
  const errors = validateSync(environment, { skipUndefinedProperties: true });
  return { environment, problems: errors.flatMap((error) => Object.values(error.constraints ?? {}).flatMap((message) => message.split('\n'))) };
}

/** `.env` under the real environment (dotenv never overrides it), read once: the traces' setup, which runs first, and loadConfig ask. */
let envFileRead = false;
export function readEnvFile(cwd = process.cwd()): void {
  if (!envFileRead) readDotenv({ path: resolve(cwd, '.env'), quiet: true });
  envFileRead = true;
}

function productionDemands(environment: Environment): string[] {
  return [
    environment.DATABASE_URL === undefined &&
      'DATABASE_URL is required in production: the PostgreSQL server that keeps the data (the embedded PostgreSQL is for development, a first run and the tests). Set it to postgres://<user>:<password>@<host>:5432/<database>',
    environment.CURSOR_SECRET.length === 0 &&
      'CURSOR_SECRET is required in production: the secret that signs list cursors, the same on every instance. Make one with `openssl rand -base64 32`',
    // Refused rather than served to anyone: the metrics describe traffic, keys' refusals and the database.
    environment.METRICS_ENABLED &&
      environment.METRICS_TOKEN === undefined &&
      'METRICS_TOKEN is required in production while metrics are on: the bearer token Prometheus sends to GET /metrics. Make one with `openssl rand -hex 32` (or set METRICS_ENABLED=false)',
  ].filter((demand) => demand !== false);
}
