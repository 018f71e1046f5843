import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { MAIN, run } from '../support/processes';
import { TestDatabase, createTestDatabase } from '../support/test-database';

// Real processes on a shared 2-core machine: starting them may take a while under load.
jest.setTimeout(120_000);

const PRODUCTION = {
  NODE_ENV: 'production',
  CURSOR_SECRET: 'a-production-cursor-secret-of-32-chars-or-more',
  METRICS_ENABLED: 'false',
  API_KEYS: 'start-errors-key-0123456789abcdef',
  PORT: '0',
};

/** A loopback port nothing listens on: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One line on stderr, no stack, no pg error object. */
function expectOneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at /m);
  return lines[0];
}

(process.env.DATABASE_URL ? describe : describe.skip)('start-up errors (e2e, PostgreSQL server)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('an unreachable server: one line naming DATABASE_URL and asking whether PostgreSQL runs there', async () => {
    const port = await closedPort();
    const result = await run(process.execPath, [MAIN], {
      ...PRODUCTION,
      DATABASE_URL: `postgres://petstore:secret-password@127.0.0.1:${port}/petstore`,
    });
    expect(result.code).toBe(1);
    const line = expectOneLine(result.stderr);
    expect(line).toBe(
      `Cannot connect to PostgreSQL at 127.0.0.1:${port} (DATABASE_URL): connection refused. Is PostgreSQL running there, and are DATABASE_URL's host and port right?`,
    );
    expect(result.stdout).not.toContain('listening');
  });

  it('a DATABASE_URL pg cannot read (a port out of range): one line naming it, never its password', async () => {
    const result = await run(process.execPath, [MAIN], { ...PRODUCTION, DATABASE_URL: 'postgres://u:secret-password@127.0.0.1:99999/db' });
    expect(result.code).toBe(1);
    expect(expectOneLine(result.stderr)).toBe("DATABASE_URL is not a URL PostgreSQL's client can read: check its host, port and escapes");
  });

  it('a PORT another process listens on: the setting named, no stack', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    const own = await createTestDatabase(); // the start migrates it before it listens
    try {
      const result = await run(process.execPath, [MAIN], { ...PRODUCTION, DATABASE_URL: own.url, HOST: '127.0.0.1', PORT: String(port) });
      expect(result.code).toBe(1);
      expect(result.stderr.trimEnd().split('\n')).toEqual([
        'Invalid configuration:',
        `  - HOST 127.0.0.1 and PORT ${port}: cannot listen there (another process listens there)`,
      ]);
    } finally {
      busy.close();
      await own.drop();
    }
  });

  it('a database that does not exist: one line naming DATABASE_URL and the createdb that makes it', async () => {
    const url = new URL(database.url);
    url.pathname = '/petstore_missing_database';
    const result = await run(process.execPath, [MAIN], { ...PRODUCTION, DATABASE_URL: url.toString() });
    expect(result.code).toBe(1);
    const line = expectOneLine(result.stderr);
    expect(line).toBe(
      `The database "petstore_missing_database" does not exist on the PostgreSQL server at ${url.hostname}:${url.port || 5432} (DATABASE_URL): create it (createdb -h ${url.hostname} -p ${url.port || 5432} -U ${url.username || 'postgres'} petstore_missing_database) or name an existing one in DATABASE_URL`,
    );
  });

  it('an unreachable DATABASE_DIRECT_URL is named as such', async () => {
    const port = await closedPort();
    const result = await run(process.execPath, [MAIN], {
      ...PRODUCTION,
      DATABASE_URL: database.url,
      DATABASE_DIRECT_URL: `postgres://postgres@127.0.0.1:${port}/petstore`,
    });
    expect(result.code).toBe(1);
    expect(expectOneLine(result.stderr)).toContain(`at 127.0.0.1:${port} (DATABASE_DIRECT_URL): connection refused`);
  });

  it('production secrets missing: refused before the database is touched (nothing migrated), every demand named', async () => {
    const result = await run(process.execPath, [MAIN], { NODE_ENV: 'production', DATABASE_URL: database.url, PORT: '0' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('CURSOR_SECRET is required in production');
    expect(result.stderr).toContain('METRICS_TOKEN is required in production');
    expect(result.stderr).toContain('API_KEYS is empty and the database is not opened until the above are set');
    expect(result.stdout).not.toContain('Starting Nest application');
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const tables = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
      expect(tables.rows).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('production secrets missing with an unreachable server: the secrets are named, not the server', async () => {
    const port = await closedPort();
    const result = await run(process.execPath, [MAIN], {
      NODE_ENV: 'production',
      API_KEYS: PRODUCTION.API_KEYS,
      DATABASE_URL: `postgres://x@127.0.0.1:${port}/x`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('CURSOR_SECRET is required in production');
    expect(result.stderr).not.toContain('API_KEYS is empty');
    expect(result.stderr).not.toContain('ECONNREFUSED');
  });
});

describe('start-up errors (e2e, no database)', () => {
  it('production without DATABASE_URL: refused, naming DATABASE_URL, before the embedded PostgreSQL is started', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'petstore-start-'));
    const dataDir = join(parent, 'data');
    try {
      const result = await run(process.execPath, [MAIN], { ...PRODUCTION, DATA_DIR: dataDir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'Invalid configuration:\n  - DATABASE_URL is required in production: the PostgreSQL server that keeps the data (the embedded PostgreSQL is for development, a first run and the tests). Set it to postgres://<user>:<password>@<host>:5432/<database>\n',
      );
      expect(result.stdout).not.toContain('listening');
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
