import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { secretWeakness } from './secret-strength';
import { CONFIG_VARIABLES, VariableDoc, VariableName } from './variables';

/** The service's configuration, read from the environment once at start. */
export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** A PostgreSQL server; when absent the embedded PostgreSQL (PGlite) is used. */
  databaseUrl?: string;
  /** Where the embedded PostgreSQL keeps its files. */
  dataDir: string;
  /** Bootstrap API keys from `API_KEYS`. */
  apiKeys: string[];
  publicBaseUrl: string;
  stagingBaseUrl: string;
  /** Connections the service keeps open to a PostgreSQL server. */
  databasePoolSize: number;
  /**
   * `transaction` when DATABASE_URL is a transaction pooler (PgBouncer `pool_mode = transaction`): no
   * session state (named statements, startup parameters, LISTEN) survives one transaction there.
   */
  databasePooling: 'session' | 'transaction';
  /** A direct (session) connection to the same database, for LISTEN and migrations behind a pooler. */
  databaseDirectUrl?: string;
  /** On SIGTERM: how long readiness answers 503 (and answers close their connections) before the listener closes. */
  drainDelayMs: number;
  /**
   * Keys that sign list cursors (`CURSOR_SECRET`, comma-separated): the first signs, every one verifies,
   * so a secret can be rotated without breaking cursors in flight. Every instance must share them.
   */
  cursorSecrets: string[];
  /** Service processes sharing the port (`WEB_CONCURRENCY`, default 1); more than one needs `DATABASE_URL`. */
  webConcurrency: number;
  /** pino level of the log lines. */
  logLevel: LogLevel;
  /** `json`: a JSON object a line (for collectors); `pretty`: readable lines. Unset: pretty when stdout is a terminal. */
  logFormat?: LogFormat;
  /** Browser origins allowed by CORS; empty: CORS is off. */
  corsOrigins: string[];
  /** Time allowed to receive a whole request. */
  requestTimeoutMs: number;
  maxConnections: number;
  keepAliveTimeoutMs: number;
  /** Requests a minute per API key; 0 turns rate limiting off. */
  rateLimitPerMinute: number;
  /** Where the rate limit counters live; in memory when absent. */
  redisUrl?: string;
  /** Failed authentications a client address may make per minute before it is refused (429); 0: no limit. */
  authFailuresPerMinute: number;
  /** Fastify's trustProxy: the proxies whose X-Forwarded-For names the client address (unset: none). */
  trustProxy?: string;
  /**
   * What production still lacks (each with the command that fixes it). Not thrown here: whether an API
   * key exists is known only once the database is open, and every demand is reported at once then.
   */
  productionDemands: string[];
  /** `GET /metrics` is served (`METRICS_ENABLED`, default true). */
  metricsEnabled: boolean;
  /** The bearer token `/metrics` demands (`METRICS_TOKEN`); required in production while metrics are on. */
  metricsToken?: string;
  /** OpenTelemetry traces: off unless an OTLP endpoint or exporter is named. See tracingConfig. */
  tracing: TracingConfig;
}

/** OpenTelemetry traces, from the standard OTEL_* variables (read before the app's modules load). */
export interface TracingConfig {
  enabled: boolean;
  /** `OTEL_SERVICE_NAME`, default `petstore-api`. */
  serviceName: string;
  /** Where spans are sent (OTLP/HTTP, JSON): the traces URL itself. */
  tracesUrl?: string;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Development only: cursors then survive restarts. Production must set its own secret. */
const DEV_CURSOR_SECRET = 'petstore-development-cursor-secret-not-for-production';
const CURSOR_SECRET_MIN_LENGTH = 32;

// RFC 6750 b64token: the characters a bearer token may hold.
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * `service` (default): everything the service needs. `tool`: the key tool, which signs no cursor, so the
 * service's production demand for CURSOR_SECRET does not apply to it.
 */
export type ConfigPurpose = 'service' | 'tool';

/** Loads `.env` (when present) under the real environment, then validates every variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), purpose: ConfigPurpose = 'service'): AppConfig {
  if (env === process.env && existsSync(resolve(cwd, '.env'))) process.loadEnvFile(resolve(cwd, '.env'));
  const problems: string[] = [];
  const productionDemands: string[] = [];
  // Only variables of the registry (variables.ts) can be read: it is what the documentation is made from.
  const raw = (name: VariableName): string | undefined => env[name] || undefined;
  const read = <T>(name: VariableName, fallback: T, convert: (raw: string) => T | undefined, rule: string): T => {
    const given = raw(name);
    if (given === undefined) return fallback;
    const value = convert(given);
    if (value === undefined) problems.push(`${name} ${rule} (got "${given.slice(0, 100)}")`);
    return value ?? fallback;
  };
  const nodeEnv = read<AppConfig['nodeEnv']>(
    'NODE_ENV',
    'development',
    (raw) => (raw === 'development' || raw === 'production' || raw === 'test' ? raw : undefined),
    'must be development, production or test',
  );
  const port = read('PORT', 3000, (raw) => integerIn(raw, 0, 65535), 'must be an integer from 0 to 65535');
  const poolSize = read('DATABASE_POOL_SIZE', 10, (raw) => integerIn(raw, 1, 100), 'must be an integer from 1 to 100');
  const webConcurrency = read('WEB_CONCURRENCY', 1, (raw) => integerIn(raw, 1, 64), 'must be an integer from 1 to 64');
  const logLevel = read<LogLevel>(
    'LOG_LEVEL',
    nodeEnv === 'test' ? 'warn' : 'info',
    (raw) => LOG_LEVELS.find((level) => level === raw),
    `must be one of ${LOG_LEVELS.join(', ')}`,
  );
  const logFormat = read<LogFormat | undefined>(
    'LOG_FORMAT',
    undefined,
    (raw) => LOG_FORMATS.find((format) => format === raw),
    'must be json or pretty',
  );
  const corsOrigins = (raw('CORS_ORIGINS') ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  corsOrigins.forEach((origin) => {
    if (!isHttpUrl(origin) || new URL(origin).origin !== origin)
      problems.push(`CORS_ORIGINS entry "${origin.slice(0, 100)}" must be an origin such as https://app.example.com`);
  });
  const requestTimeoutMs = read('REQUEST_TIMEOUT_MS', 10000, (raw) => integerIn(raw, 1000, 300000), 'must be an integer from 1000 to 300000');
  const maxConnections = read('MAX_CONNECTIONS', 1000, (raw) => integerIn(raw, 1, 100000), 'must be an integer from 1 to 100000');
  const keepAliveTimeoutMs = read('KEEP_ALIVE_TIMEOUT_MS', 75000, (raw) => integerIn(raw, 1000, 600000), 'must be an integer from 1000 to 600000');
  const rateLimitPerMinute = read('RATE_LIMIT_PER_MINUTE', 1200, (raw) => integerIn(raw, 0, 1_000_000), 'must be an integer from 0 (off) to 1000000');
  const redisUrl = raw('REDIS_URL');
  const authFailuresPerMinute = read(
    'AUTH_FAILURES_PER_MINUTE',
    60,
    (raw) => integerIn(raw, 0, 100_000),
    'must be an integer from 0 (off) to 100000',
  );
  const trustProxy = raw('TRUST_PROXY');
  if (trustProxy !== undefined && !/^[0-9a-fA-F.:/, ]+$/.test(trustProxy)) {
    problems.push('TRUST_PROXY must be the addresses or CIDR ranges of the proxies, comma-separated (e.g. 127.0.0.1,10.0.0.0/8)');
  }
  if (redisUrl !== undefined && !hasProtocol(redisUrl, ['redis:', 'rediss:'])) problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  const databaseUrl = raw('DATABASE_URL');
  const databasePooling = read<AppConfig['databasePooling']>(
    'DATABASE_POOLING',
    'session',
    (raw) => (raw === 'session' || raw === 'transaction' ? raw : undefined),
    'must be session (direct or session pooling) or transaction (a transaction pooler such as PgBouncer)',
  );
  const databaseDirectUrl = raw('DATABASE_DIRECT_URL');
  if (databaseDirectUrl !== undefined && !isPostgresUrl(databaseDirectUrl))
    problems.push('DATABASE_DIRECT_URL must be a postgres:// or postgresql:// URL');
  if ((databaseDirectUrl !== undefined || raw('DATABASE_POOLING') !== undefined) && databaseUrl === undefined) {
    problems.push('DATABASE_POOLING and DATABASE_DIRECT_URL describe a PostgreSQL server: they need DATABASE_URL');
  }
  const drainDelayMs = read('DRAIN_DELAY_MS', 0, (raw) => integerIn(raw, 0, 5000), 'must be an integer from 0 to 5000');
  if (webConcurrency > 1 && rateLimitPerMinute > 0 && redisUrl === undefined) {
    problems.push(
      'WEB_CONCURRENCY above 1 needs REDIS_URL while rate limiting is on: each process would count apart and allow RATE_LIMIT_PER_MINUTE times as many (or set RATE_LIMIT_PER_MINUTE=0)',
    );
  }
  if (webConcurrency > 1 && databaseUrl === undefined) {
    problems.push('WEB_CONCURRENCY above 1 needs DATABASE_URL: the embedded PostgreSQL serves a single process');
  }
  if (databaseUrl !== undefined && !isPostgresUrl(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  // Production's secrets must be random: the values this project publishes (.env.example, the
  // development default) and guessable ones are refused, each named with the command that makes a good one.
  const placeholders = [DEV_CURSOR_SECRET, ...CONFIG_VARIABLES.flatMap((variable: VariableDoc) => variable.example ?? [])];
  const strongInProduction = (subject: string, secret: string, fix: string | undefined) => {
    const weakness = nodeEnv === 'production' ? secretWeakness(secret, placeholders) : undefined;
    if (weakness) problems.push(`${subject} ${weakness}: make one with \`${fix}\``);
  };
  const apiKeys = (raw('API_KEYS') ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  apiKeys.forEach((key, index) => {
    if (!BEARER_TOKEN.test(key) || key.length < 16 || key.length > 512) {
      problems.push(`API_KEYS entry ${index + 1} must be 16 to 512 characters of A-Z a-z 0-9 - . _ ~ + /`);
    } else if (estimatedBits(key) < MIN_KEY_BITS) {
      problems.push(
        `API_KEYS entry ${index + 1} is too easy to guess: use a random key (e.g. \`pnpm -s keys create\`, or \`openssl rand -base64 32\`)`,
      );
    } else strongInProduction(`API_KEYS entry ${index + 1}`, key, 'openssl rand -base64 32');
  });
  const cursorSecrets = (raw('CURSOR_SECRET') ?? '')
    .split(',')
    .map((secret) => secret.trim())
    .filter((secret) => secret !== '');
  if (cursorSecrets.some((secret) => secret.length < CURSOR_SECRET_MIN_LENGTH)) {
    problems.push(`CURSOR_SECRET entries must be at least ${CURSOR_SECRET_MIN_LENGTH} characters (e.g. \`openssl rand -base64 32\`)`);
  } else cursorSecrets.forEach((secret, index) => strongInProduction(`CURSOR_SECRET entry ${index + 1}`, secret, demandFix('CURSOR_SECRET')));
  if (cursorSecrets.length === 0) {
    if (nodeEnv === 'production' && purpose === 'service') {
      productionDemands.push(
        `CURSOR_SECRET is required in production: the secret that signs list cursors, the same on every instance. Make one with \`${demandFix('CURSOR_SECRET')}\``,
      );
    } else cursorSecrets.push(DEV_CURSOR_SECRET);
  }
  const baseUrl = (name: VariableName, fallback: string) => {
    const value = raw(name) ?? fallback;
    if (!isHttpUrl(value) || !value.replace(/\/+$/, '').endsWith('/v1')) problems.push(`${name} must be an http(s) URL ending in /v1`);
    return value.replace(/\/+$/, '');
  };
  const metricsEnabled = read(
    'METRICS_ENABLED',
    true,
    (raw) => (raw === 'true' ? true : raw === 'false' ? false : undefined),
    'must be true or false',
  );
  const metricsToken = raw('METRICS_TOKEN');
  if (
    metricsToken !== undefined &&
    (!BEARER_TOKEN.test(metricsToken) || metricsToken.length < 32 || metricsToken.length > 512 || estimatedBits(metricsToken) < MIN_KEY_BITS)
  ) {
    problems.push('METRICS_TOKEN must be a random token of 32 to 512 characters of A-Z a-z 0-9 - . _ ~ + / (e.g. `openssl rand -hex 32`)');
  } else if (metricsToken !== undefined) strongInProduction('METRICS_TOKEN', metricsToken, demandFix('METRICS_TOKEN'));
  // Refuse rather than serve the metrics to anyone: they describe traffic, keys' refusals and the database.
  if (metricsEnabled && metricsToken === undefined && nodeEnv === 'production' && purpose === 'service') {
    productionDemands.push(
      `METRICS_TOKEN is required in production while metrics are on: the bearer token Prometheus sends to GET /metrics. Make one with \`${demandFix('METRICS_TOKEN')}\` (or set METRICS_ENABLED=false)`,
    );
  }
  const tracing = tracingConfig(env, problems);
  const config: AppConfig = {
    nodeEnv,
    host: raw('HOST') ?? '127.0.0.1',
    port,
    databaseUrl,
    dataDir: absolute(raw('DATA_DIR') ?? '.data', cwd),
    apiKeys,
    publicBaseUrl: baseUrl('PUBLIC_BASE_URL', 'https://petstore.example.com/v1'),
    stagingBaseUrl: baseUrl('STAGING_BASE_URL', 'https://staging.petstore.example.com/v1'),
    databasePoolSize: poolSize,
    databasePooling,
    databaseDirectUrl,
    drainDelayMs,
    cursorSecrets,
    webConcurrency,
    logLevel,
    logFormat,
    corsOrigins,
    requestTimeoutMs,
    maxConnections,
    keepAliveTimeoutMs,
    rateLimitPerMinute,
    redisUrl,
    authFailuresPerMinute,
    trustProxy,
    productionDemands,
    metricsEnabled,
    metricsToken,
    tracing,
  };
  if (problems.length > 0) throw new ConfigError([...problems, ...productionDemands]);
  return config;
}

function demandFix(name: VariableName): string | undefined {
  return (CONFIG_VARIABLES as readonly VariableDoc[]).find((variable) => variable.name === name)?.requiredInProduction;
}

const OTLP_TRACES_PATH = 'v1/traces';

/**
 * Traces follow the OpenTelemetry variables: on when OTEL_TRACES_EXPORTER is `otlp`, or when it is unset
 * and OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) names a collector; off with
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. Only OTLP over HTTP with JSON is sent.
 * Called by the tracing setup before anything else loads, and by loadConfig, which reports the problems.
 */
export function tracingConfig(env: NodeJS.ProcessEnv, problems: string[] = []): TracingConfig {
  const serviceName = env.OTEL_SERVICE_NAME || 'petstore-api';
  const exporter = env.OTEL_TRACES_EXPORTER || undefined;
  if (exporter !== undefined && exporter !== 'otlp' && exporter !== 'none') problems.push('OTEL_TRACES_EXPORTER must be otlp or none');
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || undefined;
  if (protocol !== undefined && protocol !== 'http/json')
    problems.push('OTEL_EXPORTER_OTLP_PROTOCOL must be http/json (the only OTLP protocol this service sends)');
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined;
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || undefined;
  for (const [name, value] of [
    ['OTEL_EXPORTER_OTLP_ENDPOINT', base],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', specific],
  ] as const) {
    if (value !== undefined && !isHttpUrl(value)) problems.push(`${name} must be an http(s) URL, such as http://otel-collector:4318`);
  }
  // As the OTLP specification says: the signal's own variable is used as is, the base gets /v1/traces.
  const tracesUrl =
    specific ??
    (base && `${base.replace(/\/+$/, '')}/${OTLP_TRACES_PATH}`) ??
    (exporter === 'otlp' ? `http://localhost:4318/${OTLP_TRACES_PATH}` : undefined);
  const disabled = env.OTEL_SDK_DISABLED === 'true' || exporter === 'none';
  const enabled = !disabled && (exporter === 'otlp' || (base ?? specific) !== undefined);
  return { enabled, serviceName, ...(enabled && { tracesUrl }) };
}

/** An API_KEYS entry must carry at least this much (estimated) randomness. */
const MIN_KEY_BITS = 64;

/** Shannon entropy of the key's characters times its length: 16 identical characters carry 0 bits. */
function estimatedBits(key: string): number {
  const counts = new Map<string, number>();
  for (const character of key) counts.set(character, (counts.get(character) ?? 0) + 1);
  let perCharacter = 0;
  for (const count of counts.values()) perCharacter -= (count / key.length) * Math.log2(count / key.length);
  return perCharacter * key.length;
}

function integerIn(raw: string, min: number, max: number): number | undefined {
  if (!/^[0-9]+$/.test(raw)) return undefined;
  const value = Number(raw);
  return value >= min && value <= max ? value : undefined;
}

function isPostgresUrl(raw: string): boolean {
  try {
    return ['postgres:', 'postgresql:'].includes(new URL(raw).protocol);
  } catch {
    return false;
  }
}

function hasProtocol(raw: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(raw).protocol);
  } catch {
    return false;
  }
}

function isHttpUrl(raw: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(raw).protocol);
  } catch {
    return false;
  }
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}
