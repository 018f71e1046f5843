import { ConfigError, loadConfig } from './config';

const CWD = '/srv/petstore';
const METRICS_TOKEN = 'c2f1a9e07b3d4e6f8a1b2c3d4e5f60718293a4b5c6d7e8f9';

/* The values loadConfig refuses, and what production demands; what it reads and accepts is config.spec.ts. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, CWD);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('loadConfig accepted the environment');
}

describe('loadConfig', () => {
  const METRICS_DEMAND =
    'METRICS_TOKEN is required in production while metrics are on: the bearer token Prometheus sends to GET /metrics. Make one with `openssl rand -hex 32` (or set METRICS_ENABLED=false)';
  const CURSOR_DEMAND =
    'CURSOR_SECRET is required in production: the secret that signs list cursors, the same on every instance. Make one with `openssl rand -base64 32`';

  const DATABASE_DEMAND =
    'DATABASE_URL is required in production: the PostgreSQL server that keeps the data (the embedded PostgreSQL is for development, a first run and the tests). Set it to postgres://<user>:<password>@<host>:5432/<database>';

  it('asks the key tool for no CURSOR_SECRET, which only the service uses', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x' };
    expect(loadConfig(production, CWD).productionDemands).toEqual([CURSOR_DEMAND, METRICS_DEMAND]);
    expect(loadConfig(production, CWD, 'tool').productionDemands).toEqual([]);
  });

  it('demands DATABASE_URL in production: the embedded PostgreSQL is for development, a first run and the tests', () => {
    const secrets = { CURSOR_SECRET: 'Qx7fN2pL9vR4tW8zK3mB6cY1hD5gJ0sA', METRICS_TOKEN };
    expect(loadConfig({ NODE_ENV: 'production', ...secrets }, CWD).productionDemands).toEqual([DATABASE_DEMAND]);
    expect(loadConfig({ NODE_ENV: 'production', ...secrets, DATABASE_URL: 'postgres://db/x' }, CWD).productionDemands).toEqual([]);
    expect(loadConfig({ NODE_ENV: 'development' }, CWD).database.url).toBeUndefined();
  });

  it('reports production demands together with every invalid value, each with its fix', () => {
    expect(problemsOf({ NODE_ENV: 'production', PORT: 'x', API_KEYS: 'aaaaaaaaaaaaaaaa' })).toEqual([
      'PORT must be an integer from 0 to 65535 (got "x")',
      'API_KEYS entry 1 is too easy to guess: use a random key (e.g. `pnpm -s keys create`, or `openssl rand -base64 32`)',
      DATABASE_DEMAND,
      CURSOR_DEMAND,
      METRICS_DEMAND,
    ]);
  });

  it('refuses to start in production with metrics on and no METRICS_TOKEN, rather than serve them to anyone', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x', CURSOR_SECRET: 'Qx7fN2pL9vR4tW8zK3mB6cY1hD5gJ0sA' };
    expect(loadConfig(production, CWD).productionDemands).toEqual([METRICS_DEMAND]);
    expect(loadConfig({ ...production, METRICS_ENABLED: 'false' }, CWD).metrics.enabled).toBe(false);
    expect(loadConfig({ ...production, METRICS_TOKEN }, CWD).metrics.token).toBe(METRICS_TOKEN);
    // Outside production an unset token leaves /metrics open (development on loopback, tests).
    expect(loadConfig({}, CWD).metrics.token).toBeUndefined();
  });

  it.each([
    ['short', 'metrics-token'],
    ['guessable', 'a'.repeat(40)],
    ['with a space', 'metrics token 0123456789abcdefghijklmnop'],
  ])('refuses a METRICS_TOKEN that is %s', (_case, token) => {
    expect(problemsOf({ METRICS_TOKEN: token })).toEqual([
      'METRICS_TOKEN must be a random token of 32 to 512 characters of A-Z a-z 0-9 - . _ ~ + / (e.g. `openssl rand -hex 32`)',
    ]);
  });

  describe('secrets in production', () => {
    const STRONG = { CURSOR_SECRET: 'Jx0p3kQm9Vb2Zr7Lw4Nc8Ty1Hs6Dg5Fa0Ke3Ui', METRICS_TOKEN };
    const production = (env: Record<string, string>) => problemsOf({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x', ...STRONG, ...env });
    const easy = (subject: string, fix: string) =>
      new RegExp(`^${subject} is too easy to guess \\(an estimated [0-9]+ bits; at least 64 needed\\): make one with \`${fix}\`$`);
    const placeholder = (subject: string, fix: string) => `${subject} is a published placeholder, known to anyone: make one with \`${fix}\``;

    it.each([
      ['API_KEYS', 'abcdefghijklmnop', easy('API_KEYS entry 1', 'openssl rand -base64 32')],
      ['API_KEYS', 'changeme-changeme-changeme', easy('API_KEYS entry 1', 'openssl rand -base64 32')],
      ['API_KEYS', 'Jx0p3kQm9Vb2Zr7Lw4Nc8Ty1Hs6Dg5Fa0Ke3Ui,petstore-api-key-2026', easy('API_KEYS entry 2', 'openssl rand -base64 32')],
      ['METRICS_TOKEN', '0123456789abcdef0123456789abcdef', easy('METRICS_TOKEN', 'openssl rand -hex 32')],
      ['CURSOR_SECRET', 'a'.repeat(32), easy('CURSOR_SECRET entry 1', 'openssl rand -base64 32')],
      ['CURSOR_SECRET', 'output-of-openssl-rand-base64-32', placeholder('CURSOR_SECRET entry 1', 'openssl rand -base64 32')],
      ['CURSOR_SECRET', 'petstore-development-cursor-secret-not-for-production', placeholder('CURSOR_SECRET entry 1', 'openssl rand -base64 32')],
    ])('refuses a guessable %s (%s), naming it and how to make a good one', (name, value, problem) => {
      const problems = production({ [name]: value });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(problem);
    });

    it('accepts random values, and leaves development and tests their fixed ones', () => {
      const random = { API_KEYS: 'pet_KiSWS233-SiZndhoGYA6JLasfagqfiryXB6EJVZCty0,6jFyD41K9maEeEjMXxU4dl5elyTlIhUVkddQv1J1hdM=' };
      const env = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x', ...STRONG, ...random };
      expect(loadConfig({ ...env, METRICS_TOKEN: 'f3b4433b55667aa40f4eac1813ee229cf3b4433b55667aa4' }, CWD).productionDemands).toEqual([]);
      expect(
        loadConfig({ NODE_ENV: 'test', API_KEYS: 'test-key-0123456789abcdefghijklmnop', CURSOR_SECRET: 'a'.repeat(32) }, CWD).auth.apiKeys,
      ).toHaveLength(1);
    });

    it('never echoes the secret in its message', () => {
      expect(production({ API_KEYS: 'changeme-changeme-changeme' }).join('\n')).not.toContain('changeme');
    });
  });

  it('refuses a pooling setting it does not know, and pooler settings without DATABASE_URL', () => {
    expect(problemsOf({ DATABASE_URL: 'postgres://db/x', DATABASE_POOLING: 'statement' })).toEqual([
      'DATABASE_POOLING must be session (direct or session pooling) or transaction (a transaction pooler such as PgBouncer) (got "statement")',
    ]);
    expect(problemsOf({ DATABASE_POOLING: 'transaction', DATABASE_DIRECT_URL: 'http://db/x' })).toEqual([
      'DATABASE_POOLING describes a PostgreSQL server: it needs DATABASE_URL',
      'DATABASE_DIRECT_URL describes a PostgreSQL server: it needs DATABASE_URL',
      'DATABASE_DIRECT_URL must be a postgres:// or postgresql:// URL',
    ]);
  });

  it.each([
    ['NODE_ENV', 'staging', 'NODE_ENV must be development, production or test (got "staging")'],
    ['LOG_FORMAT', 'text', 'LOG_FORMAT must be json or pretty (got "text")'],
    ['PORT', 'abc', 'PORT must be an integer from 0 to 65535 (got "abc")'],
    ['METRICS_ENABLED', 'yes', 'METRICS_ENABLED must be true or false (got "yes")'],
    ['PORT', '65536', 'PORT must be an integer from 0 to 65535 (got "65536")'],
    ['PORT', '-1', 'PORT must be an integer from 0 to 65535 (got "-1")'],
    ['PORT', '80.5', 'PORT must be an integer from 0 to 65535 (got "80.5")'],
    ['DATABASE_POOL_SIZE', '0', 'DATABASE_POOL_SIZE must be an integer from 1 to 100 (got "0")'],
    ['DATABASE_URL', 'mysql://localhost/db', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    ['DATABASE_URL', 'not a url', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    ['API_KEYS', 'short', 'API_KEYS entry 1 must be 16 to 512 characters of A-Z a-z 0-9 - . _ ~ + /'],
    ['API_KEYS', 'key-0123456789abcdef,has spaces in it!!', 'API_KEYS entry 2 must be 16 to 512 characters of A-Z a-z 0-9 - . _ ~ + /'],
    ['PUBLIC_BASE_URL', 'https://api.example.org', 'PUBLIC_BASE_URL must be an http(s) URL ending in /v1'],
    ['STAGING_BASE_URL', 'ftp://staging.example.org/v1', 'STAGING_BASE_URL must be an http(s) URL ending in /v1'],
    [
      'API_KEYS',
      'aaaaaaaaaaaaaaaa',
      'API_KEYS entry 1 is too easy to guess: use a random key (e.g. `pnpm -s keys create`, or `openssl rand -base64 32`)',
    ],
    [
      'API_KEYS',
      'key-0123456789abcdef,abababababababab',
      'API_KEYS entry 2 is too easy to guess: use a random key (e.g. `pnpm -s keys create`, or `openssl rand -base64 32`)',
    ],
    ['RATE_LIMIT_PER_MINUTE', '-1', 'RATE_LIMIT_PER_MINUTE must be an integer from 0 (off) to 1000000 (got "-1")'],
    ['CORS_ORIGINS', 'https://app.example.com,https://b.example.com/', 'CORS_ORIGINS entries must be origins such as https://app.example.com'],
    ['REDIS_URL', 'http://cache:6379', 'REDIS_URL must be a redis:// or rediss:// URL'],
    ['TRUST_PROXY', 'everyone', 'TRUST_PROXY must be the addresses or CIDR ranges of the proxies, comma-separated (e.g. 127.0.0.1,10.0.0.0/8)'],
    ['DRAIN_DELAY_MS', '6000', 'DRAIN_DELAY_MS must be an integer from 0 to 5000 (got "6000")'],
    // Each of these started the service and failed later with a stack (the Redis one printed its password).
    ['HOST', 'not a host', 'HOST must be an IP address or a host name (got "not a host")'],
    ['HOST', '999.1.1.1', 'HOST must be an IP address or a host name (got "999.1.1.1")'],
    ['TRUST_PROXY', '10.0.0.0/33', 'TRUST_PROXY must be the addresses or CIDR ranges of the proxies, comma-separated (e.g. 127.0.0.1,10.0.0.0/8)'],
    ['TRUST_PROXY', '300.1.1.1', 'TRUST_PROXY must be the addresses or CIDR ranges of the proxies, comma-separated (e.g. 127.0.0.1,10.0.0.0/8)'],
    [
      'TRUST_PROXY',
      '1.2.3.4/255.255.0.1',
      'TRUST_PROXY must be the addresses or CIDR ranges of the proxies, comma-separated (e.g. 127.0.0.1,10.0.0.0/8)',
    ],
    ['REDIS_URL', 'redis://:secret-password@[::1', 'REDIS_URL must be a redis:// or rediss:// URL'],
    [
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      'http://[::1',
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL, such as http://otel-collector:4318',
    ],
    ['CORS_ORIGINS', 'https://a.example.com:99999', 'CORS_ORIGINS entries must be origins such as https://app.example.com'],
    ['PORT', '99999999999999999999', 'PORT must be an integer from 0 to 65535 (got "99999999999999999999")'],
  ])('stops on a bad %s (%s), naming the variable', (name, value, problem) => {
    expect(problemsOf({ [name]: value })).toEqual([problem]);
  });

  it('checks the OTEL_* variables the traces depend on', () => {
    expect(
      problemsOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
        OTEL_TRACES_EXPORTER: 'zipkin',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        // The SDK takes any other value as false: traces would stay on.
        OTEL_SDK_DISABLED: 'yes',
      }),
    ).toEqual([
      'OTEL_TRACES_EXPORTER must be otlp or none',
      'OTEL_EXPORTER_OTLP_PROTOCOL must be http/json (the only OTLP protocol this service sends)',
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, such as http://otel-collector:4318',
      'OTEL_SDK_DISABLED must be true or false (got "yes")',
    ]);
  });

  it('never echoes an API key in its message', () => {
    const message = problemsOf({ API_KEYS: 'secret key with spaces' }).join('\n');
    expect(message).not.toContain('secret');
  });
});
