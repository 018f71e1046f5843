import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig, ConfigError, loadConfig, readEnvFile } from './config';
import { configModule } from './config.module';

const CWD = '/srv/petstore';
const METRICS_TOKEN = 'c2f1a9e07b3d4e6f8a1b2c3d4e5f60718293a4b5c6d7e8f9';

/* What loadConfig reads and accepts, and how it reports; the values it refuses and production's demands are config-refusals.spec.ts. */
describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    expect(loadConfig({}, CWD)).toEqual({
      nodeEnv: 'development',
      http: {
        host: '127.0.0.1',
        port: 3000,
        drainDelayMs: 0,
        corsOrigins: [],
        requestTimeoutMs: 10000,
        maxConnections: 1000,
        keepAliveTimeoutMs: 75000,
        trustProxy: undefined,
      },
      database: { url: undefined, dataDir: '/srv/petstore/.data', poolSize: 10, pooling: 'session', directUrl: undefined },
      auth: { apiKeys: [], cursorSecrets: ['petstore-development-cursor-secret-not-for-production'] },
      rateLimit: { perMinute: 1200, redisUrl: undefined },
      logging: { level: 'info', format: undefined },
      metrics: { enabled: true, token: undefined },
      openApi: { publicBaseUrl: 'https://petstore.example.com/v1', stagingBaseUrl: 'https://staging.petstore.example.com/v1' },
      productionDemands: [],
    });
  });

  it('reads every variable', () => {
    expect(
      loadConfig(
        {
          NODE_ENV: 'production',
          HOST: '0.0.0.0',
          PORT: '8080',
          DATABASE_URL: 'postgresql://app@db:5432/petstore',
          DATA_DIR: '/var/lib/petstore',
          API_KEYS: ' Hk4mQ9xT2vN7bR1pW6sZ3cL8fJ0dY5gA , pet_Zq81LmN0vBc7xRt2Ke5Wd9 ,,',
          PUBLIC_BASE_URL: 'https://api.example.org/v1/',
          STAGING_BASE_URL: 'http://staging.example.org/v1',
          DATABASE_POOL_SIZE: '4',
          DATABASE_POOLING: 'transaction',
          DATABASE_DIRECT_URL: 'postgresql://app@db-primary:5432/petstore',
          DRAIN_DELAY_MS: '1500',
          CURSOR_SECRET: 'Qx7fN2pL9vR4tW8zK3mB6cY1hD5gJ0sA, Vd3kP8wE1rT6yU9iO2aS5fG7hJ4lZ0xC',
          LOG_LEVEL: 'debug',
          LOG_FORMAT: 'pretty',
          CORS_ORIGINS: 'https://app.example.com',
          REQUEST_TIMEOUT_MS: '5000',
          MAX_CONNECTIONS: '200',
          KEEP_ALIVE_TIMEOUT_MS: '65000',
          RATE_LIMIT_PER_MINUTE: '0',
          REDIS_URL: 'redis://cache:6379',
          TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
          METRICS_TOKEN: METRICS_TOKEN,
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
        },
        CWD,
      ),
    ).toEqual({
      nodeEnv: 'production',
      http: {
        host: '0.0.0.0',
        port: 8080,
        drainDelayMs: 1500,
        corsOrigins: ['https://app.example.com'],
        requestTimeoutMs: 5000,
        maxConnections: 200,
        keepAliveTimeoutMs: 65000,
        trustProxy: '10.0.0.0/8, 127.0.0.1',
      },
      database: {
        url: 'postgresql://app@db:5432/petstore',
        dataDir: '/var/lib/petstore',
        poolSize: 4,
        pooling: 'transaction',
        directUrl: 'postgresql://app@db-primary:5432/petstore',
      },
      auth: {
        apiKeys: ['Hk4mQ9xT2vN7bR1pW6sZ3cL8fJ0dY5gA', 'pet_Zq81LmN0vBc7xRt2Ke5Wd9'],
        cursorSecrets: ['Qx7fN2pL9vR4tW8zK3mB6cY1hD5gJ0sA', 'Vd3kP8wE1rT6yU9iO2aS5fG7hJ4lZ0xC'],
      },
      rateLimit: { perMinute: 0, redisUrl: 'redis://cache:6379' },
      logging: { level: 'debug', format: 'pretty' },
      metrics: { enabled: true, token: METRICS_TOKEN },
      openApi: { publicBaseUrl: 'https://api.example.org/v1', stagingBaseUrl: 'http://staging.example.org/v1' },
      productionDemands: [],
    });
  });

  it('resolves a relative DATA_DIR against the working directory', () => {
    expect(loadConfig({ DATA_DIR: 'data/db' }, CWD).database.dataDir).toBe('/srv/petstore/data/db');
  });

  it('accepts the host and proxy forms Node and Fastify read', () => {
    for (const HOST of ['0.0.0.0', '::', '127.0.0.1', 'localhost', 'api-1.internal']) expect(loadConfig({ HOST }, CWD).http.host).toBe(HOST);
    const TRUST_PROXY = '127.0.0.1, 10.0.0.0/8, 10.0.0.0/255.0.0.0, ::1, fd00::/8';
    expect(loadConfig({ TRUST_PROXY }, CWD).http.trustProxy).toBe(TRUST_PROXY);
  });

  it('reports every bad variable at once, in a message that names each', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'x', NODE_ENV: 'qa' }, CWD);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      'Invalid configuration:\n  - NODE_ENV must be development, production or test (got "qa")\n  - PORT must be an integer from 0 to 65535 (got "x")',
    );
  });
});

describe('the environment outside loadConfig', () => {
  it('reads .env once, under the real environment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-env-'));
    writeFileSync(join(dir, '.env'), 'PETSTORE_ENV_FILE_TEST=from-file\nPETSTORE_ENV_REAL_TEST=from-file\n');
    process.env.PETSTORE_ENV_REAL_TEST = 'real';
    try {
      readEnvFile(dir);
      expect([process.env.PETSTORE_ENV_FILE_TEST, process.env.PETSTORE_ENV_REAL_TEST]).toEqual(['from-file', 'real']);
      writeFileSync(join(dir, '.env'), 'PETSTORE_ENV_FILE_TEST=changed\n');
      readEnvFile(dir);
      expect(process.env.PETSTORE_ENV_FILE_TEST).toBe('from-file');
    } finally {
      delete process.env.PETSTORE_ENV_FILE_TEST;
      delete process.env.PETSTORE_ENV_REAL_TEST;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves the configuration through ConfigService and its typed getter, without reading process.env', async () => {
    const config = loadConfig({ PORT: '8080' }, CWD);
    process.env.PETSTORE_ENV_LEAK_TEST = 'x';
    const module = await Test.createTestingModule({ imports: [configModule(config)] }).compile();
    const service = module.get<ConfigService<AppConfig, true>>(ConfigService);
    expect(service.get('http', { infer: true }).port).toBe(8080);
    expect(service.get('PETSTORE_ENV_LEAK_TEST' as never)).toBeUndefined();
    delete process.env.PETSTORE_ENV_LEAK_TEST;
    await module.close();
  });
});
