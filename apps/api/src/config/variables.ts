/**
 * Every environment variable the service reads, written once. `loadConfig` reads only names listed here
 * (its reader takes a `VariableName`), and `pnpm config:docs` writes the README's configuration table
 * and `.env.example` from this list; a unit test fails when code reads a variable missing here or when
 * either file differs from what the generator writes. Adding a variable is one entry here.
 */
export interface VariableDoc {
  name: string;
  /** The default as a person would write it in `.env`; undefined: unset means off or not used. */
  default?: string;
  /** Shown in the table when the default needs words (it depends on something, or is a built-in). */
  defaultNote?: string;
  description: string;
  /** `service`: the HTTP service; `tool`: the key tool (`pnpm keys`), which works on the same database. */
  usedBy: readonly ('service' | 'tool')[];
  /** A value the service cannot start without in production, and the command that makes one. */
  requiredInProduction?: string;
  /** A sample value for `.env.example` when there is no default. */
  example?: string;
}

const SERVICE = ['service'] as const;
const BOTH = ['service', 'tool'] as const;

export const CONFIG_VARIABLES = [
  {
    name: 'NODE_ENV',
    default: 'development',
    usedBy: BOTH,
    description:
      '`development`, `production` or `test`. Production demands `CURSOR_SECRET`, `METRICS_TOKEN` (while metrics are on) and an API key, each hard to guess; development creates and prints a key on a first start',
  },
  {
    name: 'HOST',
    default: '127.0.0.1',
    usedBy: SERVICE,
    description: 'address the HTTP server listens on (`0.0.0.0` for every interface, as in a container)',
  },
  { name: 'PORT', default: '3000', usedBy: SERVICE, description: 'port the HTTP server listens on (0–65535; 0: any free port)' },
  {
    name: 'DATABASE_URL',
    usedBy: BOTH,
    example: 'postgres://postgres@127.0.0.1:5432/petstore',
    defaultNote: 'unset (embedded PostgreSQL)',
    description: '`postgres://…` of a PostgreSQL server; unset: the embedded PostgreSQL (PGlite) in `DATA_DIR`',
  },
  {
    name: 'DATA_DIR',
    default: '.data',
    usedBy: BOTH,
    description: 'where the embedded PostgreSQL keeps its files (relative to the working directory)',
  },
  { name: 'DATABASE_POOL_SIZE', default: '10', usedBy: SERVICE, description: 'connections kept open to a PostgreSQL server (1–100)' },
  {
    name: 'DATABASE_POOLING',
    default: 'session',
    usedBy: BOTH,
    description: '`transaction` when `DATABASE_URL` is a transaction pooler such as PgBouncer (see [Scaling out](#scaling-out))',
  },
  {
    name: 'DATABASE_DIRECT_URL',
    usedBy: BOTH,
    example: 'postgres://postgres@db-primary:5432/petstore',
    description: 'the database itself when `DATABASE_URL` is a pooler: for `LISTEN` and migrations',
  },
  {
    name: 'API_KEYS',
    usedBy: SERVICE,
    example: 'pet_…',
    description:
      'comma-separated keys holding every scope, kept in memory only (16–512 characters of `A-Z a-z 0-9 - . _ ~ + /`, random: production refuses a guessable one). Or create keys with `pnpm keys create`',
  },
  {
    name: 'CURSOR_SECRET',
    usedBy: SERVICE,
    defaultNote: 'built-in (development and test only)',
    requiredInProduction: 'openssl rand -base64 32',
    example: 'output-of-openssl-rand-base64-32',
    description:
      'comma-separated secrets (each at least 32 characters, random: production refuses a guessable one or a placeholder) signing list cursors: the first signs, every one verifies; the same on every instance',
  },
  {
    name: 'WEB_CONCURRENCY',
    default: '1',
    usedBy: SERVICE,
    description: 'service processes sharing the port (1–64); above 1 needs `DATABASE_URL` (and `REDIS_URL` while rate limiting is on)',
  },
  {
    name: 'DRAIN_DELAY_MS',
    default: '0',
    usedBy: SERVICE,
    description: 'on SIGTERM, how long readiness answers 503 before the listener closes (0–5000; 1500 behind HAProxy)',
  },
  {
    name: 'LOG_LEVEL',
    default: 'info',
    defaultNote: '`info` (`warn` when `NODE_ENV=test`)',
    usedBy: SERVICE,
    description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
  },
  {
    name: 'LOG_FORMAT',
    defaultNote: '`pretty` when stdout is a terminal, else `json`',
    usedBy: SERVICE,
    example: 'json',
    description: '`json`: one JSON object a line (for log collectors); `pretty`: readable lines, in colour on a terminal',
  },
  {
    name: 'CORS_ORIGINS',
    defaultNote: 'unset (CORS off)',
    usedBy: SERVICE,
    example: 'https://app.example.com',
    description: 'comma-separated origins allowed to call the API from a browser',
  },
  { name: 'REQUEST_TIMEOUT_MS', default: '10000', usedBy: SERVICE, description: 'time allowed to receive a whole request (1000–300000)' },
  {
    name: 'MAX_CONNECTIONS',
    default: '1000',
    usedBy: SERVICE,
    description: 'open client connections at most (1–100000); more are closed as they arrive (see [Security limits](#security-limits))',
  },
  {
    name: 'KEEP_ALIVE_TIMEOUT_MS',
    default: '75000',
    usedBy: SERVICE,
    description: 'how long an idle keep-alive connection is kept (1000–600000): longer than clients and the balancer keep theirs',
  },
  { name: 'RATE_LIMIT_PER_MINUTE', default: '1200', usedBy: SERVICE, description: 'requests per minute per API key; `0` turns rate limiting off' },
  {
    name: 'REDIS_URL',
    usedBy: SERVICE,
    example: 'redis://127.0.0.1:6379',
    description: '`redis://…` or `rediss://…`: keep rate limit counters in Redis, shared by all instances; unset: in memory',
  },
  {
    name: 'AUTH_FAILURES_PER_MINUTE',
    default: '60',
    usedBy: SERVICE,
    description:
      'failed authentications a client address (IPv6: its /64) may make per minute before it gets 429 (`0`: no limit); a valid key still passes. Counted in Redis with `REDIS_URL`',
  },
  {
    name: 'TRUST_PROXY',
    usedBy: SERVICE,
    example: '127.0.0.1,10.0.0.0/8',
    description: 'addresses or CIDR ranges of the proxies whose `X-Forwarded-For` names the client; unset: none',
  },
  {
    name: 'METRICS_ENABLED',
    default: 'true',
    usedBy: SERVICE,
    description: '`false` turns `GET /metrics` off (it answers 404 and nothing is counted)',
  },
  {
    name: 'METRICS_TOKEN',
    usedBy: SERVICE,
    defaultNote: 'unset (`/metrics` open outside production)',
    requiredInProduction: 'openssl rand -hex 32',
    example: 'output-of-openssl-rand-hex-32',
    description:
      'the bearer token `GET /metrics` demands (32–512 random token characters: production refuses a guessable one); required in production while metrics are on',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    usedBy: SERVICE,
    example: 'http://otel-collector:4318',
    description: 'an OTLP/HTTP collector: turns traces on (spans go to its `/v1/traces`); see [docs/observability.md](docs/observability.md)',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    usedBy: SERVICE,
    example: 'http://otel-collector:4318/v1/traces',
    description: 'the traces URL itself, used as is (turns traces on)',
  },
  {
    name: 'OTEL_TRACES_EXPORTER',
    usedBy: SERVICE,
    example: 'otlp',
    description: '`otlp` turns traces on (to `http://localhost:4318` without an endpoint), `none` turns them off',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    default: 'http/json',
    usedBy: SERVICE,
    description: 'only `http/json` is sent; another value is refused at start',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
    default: 'http/json',
    usedBy: SERVICE,
    description: 'as `OTEL_EXPORTER_OTLP_PROTOCOL`, for traces only',
  },
  { name: 'OTEL_SDK_DISABLED', default: 'false', usedBy: SERVICE, description: '`true` turns traces off whatever else is set' },
  { name: 'OTEL_SERVICE_NAME', default: 'petstore-api', usedBy: SERVICE, description: 'the `service.name` of every span' },
  {
    name: 'PUBLIC_BASE_URL',
    default: 'https://petstore.example.com/v1',
    usedBy: SERVICE,
    description: 'the production server named in the OpenAPI document (an http(s) URL ending in `/v1`)',
  },
  {
    name: 'STAGING_BASE_URL',
    default: 'https://staging.petstore.example.com/v1',
    usedBy: SERVICE,
    description: 'the staging server named in the OpenAPI document (an http(s) URL ending in `/v1`)',
  },
] as const satisfies readonly VariableDoc[];

export type VariableName = (typeof CONFIG_VARIABLES)[number]['name'];
