import { isIP } from 'node:net';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, Matches, ValidateBy } from 'class-validator';
import { IsApiKeys, IsCursorSecrets, IsMetricsToken } from './secret-rules';

const NODE_ENVS = ['development', 'production', 'test'] as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

// A value that does not convert stays as written, for its rule to name it.
const integer = Transform(({ value }: { value: string }) => (/^[0-9]+$/.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : value));
const boolean = Transform(({ value }: { value: string }) => ({ true: true, false: false })[value] ?? value);
const list = Transform(({ value }: { value: string }) => value.split(',').flatMap((entry) => entry.trim() || []));
const withoutTrailingSlash = Transform(({ value }: { value: string }) => value.replace(/\/+$/, ''));

const IntegerIn = (min: number, max: number, from = String(min)): PropertyDecorator => {
  const rule = ValidateBy(
    { name: 'integerIn', validator: { validate: (value: number) => Number.isInteger(value) && value >= min && value <= max } },
    { message: `$property must be an integer from ${from} to ${max} (got "$value")` },
  );
  return (target, property) => [integer, rule].forEach((decorate) => decorate(target, property));
};
const oneOf = (words: string, echo = true) => ({ message: `$property must be ${words}${echo ? ' (got "$value")' : ''}` });
/** The value is never echoed: a URL may hold a password. It must parse as the client libraries will (a port in range). */
const url = (scheme: string, words: string) =>
  ValidateBy(
    { name: 'url', validator: { validate: (value) => isUrl(value, new RegExp(`^${scheme}://[^\\s]+$`)) } },
    { message: `$property must be ${words}` },
  );
const isUrl = (value: unknown, shape: RegExp) => typeof value === 'string' && shape.test(value) && URL.canParse(value);
// Parsed by pg itself in database-check.ts: it reads forms the URL standard refuses (`postgresql://user@/db?host=/tmp`).
const POSTGRES_URL = Matches(/^postgres(ql)?:\/\/[^\s]+$/, { message: '$property must be a postgres:// or postgresql:// URL' });
const OTLP_URL = url('https?', 'an http(s) URL, such as http://otel-collector:4318');
// The exporter sends OTLP/HTTP with JSON whatever these say: another protocol is refused rather than ignored.
const OTLP_PROTOCOL = IsIn(['http/json'], oneOf('http/json (the only OTLP protocol this service sends)', false));
const VERSIONED_URL = Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?\/v1$/, { message: '$property must be an http(s) URL ending in /v1' });
const NEEDS_DATABASE_URL = ValidateBy({
  name: 'needsDatabaseUrl',
  validator: {
    validate: (value, args) => value === 'session' || (args!.object as Environment).DATABASE_URL !== undefined,
    defaultMessage: () => '$property describes a PostgreSQL server: it needs DATABASE_URL',
  },
});

/** Every variable the service and the key tool read (README.md's table): the property's initial value is the default. */
export class Environment {
  @IsIn(NODE_ENVS, oneOf('development, production or test')) NODE_ENV: (typeof NODE_ENVS)[number] = 'development';

  @ValidateBy({ name: 'host', validator: { validate: isHost } }, oneOf('an IP address or a host name')) HOST = '127.0.0.1';
  @IntegerIn(0, 65535) PORT = 3000;
  @IntegerIn(0, 5000) DRAIN_DELAY_MS = 0;
  @list
  @ValidateBy(
    { name: 'origin', validator: { validate: (value) => isUrl(value, /^https?:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:[0-9]+)?$/) } },
    { each: true, message: '$property entries must be origins such as https://app.example.com' },
  )
  CORS_ORIGINS: string[] = [];
  @IntegerIn(1000, 300_000) REQUEST_TIMEOUT_MS = 10_000;
  @IntegerIn(1, 100_000) MAX_CONNECTIONS = 1000;
  @IntegerIn(1000, 600_000) KEEP_ALIVE_TIMEOUT_MS = 75_000;
  @ValidateBy(
    { name: 'proxies', validator: { validate: (value) => typeof value === 'string' && value.split(',').every((entry) => isRange(entry.trim())) } },
    { message: '$property must be the addresses or CIDR ranges of the proxies, comma-separated (e.g. 127.0.0.1,10.0.0.0/8)' },
  )
  TRUST_PROXY?: string;

  @POSTGRES_URL DATABASE_URL?: string;
  DATA_DIR = '.data';
  @IntegerIn(1, 100) DATABASE_POOL_SIZE = 10;
  @IsIn(['session', 'transaction'], oneOf('session (direct or session pooling) or transaction (a transaction pooler such as PgBouncer)'))
  @NEEDS_DATABASE_URL
  DATABASE_POOLING: 'session' | 'transaction' = 'session';
  @POSTGRES_URL @NEEDS_DATABASE_URL DATABASE_DIRECT_URL?: string;

  @list @IsApiKeys API_KEYS: string[] = [];
  @list @IsCursorSecrets CURSOR_SECRET: string[] = [];
  @IntegerIn(0, 1_000_000, '0 (off)') RATE_LIMIT_PER_MINUTE = 1200;
  @url('rediss?', 'a redis:// or rediss:// URL') REDIS_URL?: string;

  @IsIn(LOG_LEVELS, oneOf(`one of ${LOG_LEVELS.join(', ')}`)) LOG_LEVEL?: (typeof LOG_LEVELS)[number];
  @IsIn(['json', 'pretty'], oneOf('json or pretty')) LOG_FORMAT?: 'json' | 'pretty';
  @boolean @IsBoolean(oneOf('true or false')) METRICS_ENABLED = true;
  @IsMetricsToken METRICS_TOKEN?: string;

  // Read again by the traces' setup and the OpenTelemetry SDK (as are the other OTEL_*): declared here to be checked.
  @IsIn(['otlp', 'none'], oneOf('otlp or none', false)) OTEL_TRACES_EXPORTER?: string;
  @OTLP_PROTOCOL OTEL_EXPORTER_OTLP_PROTOCOL?: string;
  @OTLP_PROTOCOL OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?: string;
  @OTLP_URL OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  @OTLP_URL OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  @IsIn(['true', 'false'], oneOf('true or false')) OTEL_SDK_DISABLED?: string;

  @withoutTrailingSlash @VERSIONED_URL PUBLIC_BASE_URL = 'https://petstore.example.com/v1';
  @withoutTrailingSlash @VERSIONED_URL STAGING_BASE_URL = 'https://staging.petstore.example.com/v1';
}

/** An IP address, or a DNS name (its labels not all digits: `999.1.1.1` is no address). */
function isHost(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (isIP(value) !== 0) return true;
  return /^(?=.*[a-z-])[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(value);
}

/** `address`, `address/prefix` or (IPv4) `address/netmask`, as Fastify's proxy-addr reads them. */
function isRange(entry: string): boolean {
  const [address, range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^[0-9]{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  const bits = range
    .split('.')
    .map((octet) => Number(octet).toString(2).padStart(8, '0'))
    .join('');
  return family === 4 && isIP(range) === 4 && /^1*0*$/.test(bits);
}
