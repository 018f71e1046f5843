import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { hashApiKey } from '../../apps/api/src/auth/api-key';
import { MAIN, ROOT, run } from '../support/processes';
import { TestDatabase, createTestDatabase } from '../support/test-database';

// Real processes and databases on a shared 2-core machine: starting them may take a while under load.
jest.setTimeout(120_000);

describe('API keys at start (e2e)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('production with no key anywhere refuses to start and says how to create one', async () => {
    const result = await run(process.execPath, [MAIN], {
      NODE_ENV: 'production',
      CURSOR_SECRET: 'a-production-cursor-secret-of-32-chars-or-more',
      METRICS_ENABLED: 'false',
      DATABASE_URL: database.url,
      PORT: '0',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'No API key exists: create one with `pnpm keys create --name <label>` (`./keys.sh create --name <label>` in the image; same DATABASE_URL or DATA_DIR) or set API_KEYS, then start again',
    );
  });

  it('production missing CURSOR_SECRET, METRICS_TOKEN and a key names all three at once, each with its fix, and starts nothing', async () => {
    const result = await run(process.execPath, [MAIN], { NODE_ENV: 'production', DATABASE_URL: database.url, PORT: '0' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      [
        'Invalid configuration:',
        '  - CURSOR_SECRET is required in production: the secret that signs list cursors, the same on every instance. Make one with `openssl rand -base64 32`',
        '  - METRICS_TOKEN is required in production while metrics are on: the bearer token Prometheus sends to GET /metrics. Make one with `openssl rand -hex 32` (or set METRICS_ENABLED=false)',
        // Refused before the database is opened (test/e2e/start-errors.e2e-spec.ts), so the key is named as a condition.
        '  - API_KEYS is empty and the database is not opened until the above are set: unless it already holds a key, create one with `pnpm keys create --name <label>` (`./keys.sh create --name <label>` in the image; same DATABASE_URL or DATA_DIR) or set API_KEYS',
      ].join('\n'),
    );
    expect(result.stdout).not.toContain('listening');
  });

  it('development with no key anywhere creates one, stores it and prints it once', async () => {
    const service = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'development', DATABASE_URL: database.url, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const lines: string[] = [];
      for await (const line of createInterface({ input: service.stdout })) {
        lines.push(line);
        // The banner is a JSON log line; the key is printed once, as plain text, before it.
        if (line.includes('Pet Store API listening')) break;
      }
      const printed = lines.join('\n').match(/pet_[A-Za-z0-9_-]{43}/g) ?? [];
      expect(printed).toHaveLength(1);
      const stored = (await queryDatabase(database.url, 'SELECT label, key_hash, scopes FROM api_keys')).rows;
      expect(stored).toEqual([
        { label: 'development key', key_hash: hashApiKey(printed[0] ?? ''), scopes: ['pets:read', 'pets:write', 'orders:read'] },
      ]);
    } finally {
      service.kill('SIGTERM');
      await once(service, 'exit');
    }
  });
});

async function queryDatabase(url: string, text: string) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}
