import { Client } from 'pg';
import { createApp } from '../../apps/api/src/app.factory';
import { loadConfig } from '../../apps/api/src/config/config';
import { TestDatabase, createTestDatabase } from './test-database';
export { STARTUP_TIMEOUT_MS } from './test-database';

export const TEST_API_KEY = 'test-key-0123456789abcdefghijklmnop';
export const AUTH = { authorization: `Bearer ${TEST_API_KEY}` };

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  body: any;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Sent as JSON unless it is already a string or Buffer. */
  body?: unknown;
}

export interface TestApp {
  app: Awaited<ReturnType<typeof createApp>>;
  baseUrl: string;
  database: TestDatabase;
  /** A direct connection to the suite's database, to check what was (not) stored. */
  sql: Client;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

/**
 * Starts the real service on a free loopback port against a database of the suite's own, or against
 * `shared` (another instance's database, which `close` then leaves in place).
 */
export async function startTestApp(env: Record<string, string> = {}, shared?: TestDatabase): Promise<TestApp> {
  const database = shared ?? (await createTestDatabase());
  const config = loadConfig({ NODE_ENV: 'test', API_KEYS: TEST_API_KEY, PORT: '0', ...env });
  const app = await createApp(config, { url: database.url, embedded: database.embedded });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const sql = new Client({ connectionString: database.url });
  await sql.connect();

  async function request(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | Buffer | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' || Buffer.isBuffer(options.body) ? options.body : JSON.stringify(options.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    const response = await fetch(baseUrl + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  }

  return {
    app,
    baseUrl,
    database,
    sql,
    request,
    async close() {
      await sql.end();
      await app.close();
      if (!shared) await database.drop();
    },
  };
}

/** The number of rows in the pets table. */
export async function countPets(testApp: TestApp): Promise<number> {
  const result = await testApp.sql.query<{ count: string }>('SELECT count(*) FROM pets');
  return Number(result.rows[0].count);
}
