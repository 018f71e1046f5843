import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, Matches } from 'class-validator';
import {
  Doc,
  IntegerIn,
  NEEDS_DATABASE_URL,
  OTLP_PROTOCOL,
  OTLP_URL,
  POSTGRES_URL,
  VERSIONED_URL,
  boolean,
  list,
  oneOf,
  url,
  withoutTrailingSlash,
} from './rules';
import { SAMPLE_CURSOR_SECRET, SAMPLE_METRICS_TOKEN, Secret, apiKeyCheck, cursorSecretCheck, metricsTokenCheck } from './secret-rules';

export { VARIABLES, type VariableDoc } from './rules';

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Every environment variable the service and the key tool read: the property is the variable, its
 * initial value the default, its decorators the rules. Validated once at start (see loadConfig), an
 * empty variable counting as unset; every problem is reported at once, each naming its variable.
 */
export class Environment {
  @Doc(
    '`development`, `production` or `test`. Production demands `DATABASE_URL`, `CURSOR_SECRET`, `METRICS_TOKEN` (while metrics are on) and an API key, each secret hard to guess; development creates and prints a key on a first start',
  )
  @IsIn(NODE_ENVS, oneOf('development, production or test'))
  NODE_ENV: (typeof NODE_ENVS)[number] = 'development';

  @Doc('address the HTTP server listens on (`0.0.0.0` for every interface, as in a container)')
  HOST = '127.0.0.1';

  @Doc('port the HTTP server listens on (0–65535; 0: any free port)')
  @IntegerIn(0, 65535)
  PORT = 3000;

  @Doc('on SIGTERM, how long readiness answers 503 before the listener closes (0–5000; 1500 behind HAProxy)')
  @IntegerIn(0, 5000)
  DRAIN_DELAY_MS = 0;

  @Doc('comma-separated origins allowed to call the API from a browser; unset: CORS off', 'https://app.example.com')
  @list
  @Matches(/^https?:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:[0-9]+)?$/, {
    each: true,
    message: '$property entries must be origins such as https://app.example.com',
  })
  CORS_ORIGINS: string[] = [];

  @Doc('time allowed to receive a whole request (1000–300000)')
  @IntegerIn(1000, 300_000)
  REQUEST_TIMEOUT_MS = 10_000;

  @Doc('open client connections at most (1–100000); more are closed as they arrive')
  @IntegerIn(1, 100_000)
  MAX_CONNECTIONS = 1000;

  @Doc('how long an idle keep-alive connection is kept (1000–600000): longer than clients and the balancer keep theirs')
  @IntegerIn(1000, 600_000)
  KEEP_ALIVE_TIMEOUT_MS = 75_000;

  @Doc('addresses or CIDR ranges of the proxies whose `X-Forwarded-For` names the client; unset: none', '127.0.0.1,10.0.0.0/8')
  @Matches(/^[0-9a-fA-F.:/, ]+$/, {
    message: '$property must be the addresses or CIDR ranges of the proxies, comma-separated (e.g. 127.0.0.1,10.0.0.0/8)',
  })
  TRUST_PROXY?: string;

  @Doc(
    '`postgres://…` of a PostgreSQL server (the key tool reads it too); unset: the embedded PostgreSQL (PGlite) in `DATA_DIR`, for development, a first run and the tests. **Required in production**',
    'postgres://postgres@127.0.0.1:5432/petstore',
  )
  @POSTGRES_URL
  DATABASE_URL?: string;

  @Doc('where the embedded PostgreSQL keeps its files (relative to the working directory; the key tool reads it too)')
  DATA_DIR = '.data';

  @Doc('connections kept open to a PostgreSQL server (1–100)')
  @IntegerIn(1, 100)
  DATABASE_POOL_SIZE = 10;

  @Doc(
    '`transaction` when `DATABASE_URL` is a transaction pooler such as PgBouncer (see [Scaling out](docs/scaling.md#through-a-transaction-pooler)); the key tool reads it too',
  )
  @IsIn(['session', 'transaction'], oneOf('session (direct or session pooling) or transaction (a transaction pooler such as PgBouncer)'))
  @NEEDS_DATABASE_URL
  DATABASE_POOLING: 'session' | 'transaction' = 'session';

  @Doc(
    'the database itself when `DATABASE_URL` is a pooler: for `LISTEN` and migrations (the key tool reads it too)',
    'postgres://postgres@db-primary:5432/petstore',
  )
  @POSTGRES_URL
  @NEEDS_DATABASE_URL
  DATABASE_DIRECT_URL?: string;

  @Doc(
    'comma-separated keys holding every scope, kept in memory only (16–512 characters of `A-Z a-z 0-9 - . _ ~ + /`, random: production refuses a guessable one). Or create keys with `pnpm keys create`',
    'pet_…',
  )
  @list
  @Secret(apiKeyCheck)
  API_KEYS: string[] = [];

  @Doc(
    'comma-separated secrets (each at least 32 characters, random) signing list cursors: the first signs, every one verifies; the same on every instance. Unset: a built-in one outside production. **Required in production**: `openssl rand -base64 32` makes one',
    SAMPLE_CURSOR_SECRET,
  )
  @list
  @Secret(cursorSecretCheck)
  CURSOR_SECRET: string[] = [];

  @Doc('requests per minute per API key; `0` turns rate limiting off')
  @IntegerIn(0, 1_000_000, '0 (off)')
  RATE_LIMIT_PER_MINUTE = 1200;

  @Doc('`redis://…` or `rediss://…`: keep rate limit counters in Redis, shared by all instances; unset: in memory', 'redis://127.0.0.1:6379')
  @url(/rediss?/, 'a redis:// or rediss:// URL')
  REDIS_URL?: string;

  @Doc('`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; unset: `info` (`warn` when `NODE_ENV=test`)', 'info')
  @IsIn(LOG_LEVELS, oneOf(`one of ${LOG_LEVELS.join(', ')}`))
  LOG_LEVEL?: (typeof LOG_LEVELS)[number];

  @Doc('`json`: one JSON object a line (for log collectors); `pretty`: readable lines; unset: `pretty` on a terminal, else `json`', 'json')
  @IsIn(['json', 'pretty'], oneOf('json or pretty'))
  LOG_FORMAT?: 'json' | 'pretty';

  @Doc('`false` turns `GET /metrics` off (it answers 404 and nothing is counted)')
  @boolean
  @IsBoolean(oneOf('true or false'))
  METRICS_ENABLED = true;

  @Doc(
    'the bearer token `GET /metrics` demands (32–512 random token characters); unset: `/metrics` open outside production. **Required in production** while metrics are on: `openssl rand -hex 32` makes one',
    SAMPLE_METRICS_TOKEN,
  )
  @Secret(metricsTokenCheck)
  METRICS_TOKEN?: string;

  @Doc('`otlp` turns traces on (to `http://localhost:4318` without an endpoint), `none` turns them off', 'otlp')
  @IsIn(['otlp', 'none'], oneOf('otlp or none', false))
  OTEL_TRACES_EXPORTER?: 'otlp' | 'none';

  @Doc('only `http/json` is sent; another value is refused at start')
  @OTLP_PROTOCOL
  OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';

  @Doc('as `OTEL_EXPORTER_OTLP_PROTOCOL`, for traces only')
  @OTLP_PROTOCOL
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL = 'http/json';

  @Doc(
    'an OTLP/HTTP collector: turns traces on (spans go to its `/v1/traces`); see [docs/observability.md](docs/observability.md)',
    'http://otel-collector:4318',
  )
  @OTLP_URL
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  @Doc('the traces URL itself, used as is (turns traces on)', 'http://otel-collector:4318/v1/traces')
  @OTLP_URL
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  @Doc('`true` turns traces off whatever else is set')
  @Transform(({ value }) => value === 'true')
  OTEL_SDK_DISABLED = false;

  @Doc('the `service.name` of every span')
  OTEL_SERVICE_NAME = 'petstore-api';

  @Doc('which traces are kept, read by the OpenTelemetry SDK (default `parentbased_always_on`)', 'parentbased_traceidratio')
  OTEL_TRACES_SAMPLER?: string;

  @Doc("the sampler's argument, read by the OpenTelemetry SDK (`0.1`: one trace in ten)", '0.1')
  OTEL_TRACES_SAMPLER_ARG?: string;

  @Doc('headers sent to the collector, read by the OpenTelemetry SDK (as are its other `OTEL_*` settings)', 'authorization=Bearer%20token')
  OTEL_EXPORTER_OTLP_HEADERS?: string;

  @Doc('the production server named in the OpenAPI document (an http(s) URL ending in `/v1`)')
  @withoutTrailingSlash
  @VERSIONED_URL
  PUBLIC_BASE_URL = 'https://petstore.example.com/v1';

  @Doc('the staging server named in the OpenAPI document (an http(s) URL ending in `/v1`)')
  @withoutTrailingSlash
  @VERSIONED_URL
  STAGING_BASE_URL = 'https://staging.petstore.example.com/v1';
}
