import { Client } from 'pg';
import { createApp } from '../../apps/api/src/app.factory';
import { loadConfig } from '../../apps/api/src/config/config';
import { ONE_SOURCE_LOAD } from '../cluster/haproxy';
import { Topology } from '../cluster/topology';
import { ContractChecker, OpenApiDocument } from './contract';
import { STARTUP_TIMEOUT_MS, TestDatabase, createTestDatabase } from './test-database';
import { TEST_API_KEY } from './test-key';
export { STARTUP_TIMEOUT_MS } from './test-database';

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
  /**
   * false: do not check the answer against the OpenAPI document. Only for requests that are outside
   * the API on purpose (the documents and Swagger UI themselves).
   */
  contract?: false;
}

export interface TestApp {
  /** The app in this process; absent behind the balancer (`pnpm test:cluster`). */
  app: Awaited<ReturnType<typeof createApp>>;
  baseUrl: string;
  database: TestDatabase;
  /** A direct connection to the suite's database, to check what was (not) stored. */
  sql: Client;
  /** Every answer is checked against the served OpenAPI document (see contract.ts) unless opted out. */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** fetch for clients (e.g. @petstore/client), with the same check of every answer. */
  fetch(input: Request): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Starts the real service on a free loopback port against a database of the suite's own, or against
 * `shared` (another instance's database, which `close` then leaves in place).
 */
export async function startTestApp(env: Record<string, string> = {}, shared?: TestDatabase): Promise<TestApp> {
  if (process.env.PETSTORE_TOPOLOGY === 'cluster' && !shared) return startBehindBalancer(env);
  const database = shared ?? (await createTestDatabase());
  const config = loadConfig({ NODE_ENV: 'test', API_KEYS: TEST_API_KEY, PORT: '0', ...env });
  const app = await createApp(config, { url: database.url, embedded: database.embedded });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return clientOf(
    baseUrl,
    database,
    async () => {
      await app.close();
      if (!shared) await database.drop();
    },
    app,
  );
}

/** `pnpm test:cluster`: the same suite against three built instances behind HAProxy and PgBouncer. */
async function startBehindBalancer(env: Record<string, string>): Promise<TestApp> {
  const topology = await Topology.start(
    {
      NODE_ENV: 'test',
      API_KEYS: TEST_API_KEY,
      RATE_LIMIT_PER_MINUTE: '1200',
      ...env,
    },
    ONE_SOURCE_LOAD,
  );
  const noApp = new Proxy({} as TestApp['app'], {
    get: () => {
      throw new Error('This suite reaches into the app, which runs in other processes under test:cluster');
    },
  });
  // The balancer does not pass the operational endpoints to the public: they are asked of an instance, as probes do.
  return clientOf(topology.baseUrl, topology.database, () => topology.stop(), noApp, topology.instanceUrl(0));
}

const OPERATIONAL = /^\/(health\/|metrics(\?|$))/;

async function clientOf(
  baseUrl: string,
  database: TestDatabase,
  stop: () => Promise<void>,
  app: TestApp['app'],
  operationsUrl = baseUrl,
): Promise<TestApp> {
  const sql = new Client({ connectionString: database.url });
  await sql.connect();

  let checker: ContractChecker | undefined;
  async function checkContract(method: string, url: string, response: Response, text: string, body: unknown): Promise<void> {
    checker ??= new ContractChecker((await (await fetch(`${baseUrl}/docs/openapi.json`)).json()) as OpenApiDocument);
    const problem = checker.problem(method, url, response.status, response.headers.get('content-type'), body, text, response.headers);
    if (problem) throw new Error(`Contract broken by ${method} ${url}: ${problem}`);
  }

  async function request(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | Buffer | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' || Buffer.isBuffer(options.body) ? options.body : JSON.stringify(options.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    const response = await fetch((OPERATIONAL.test(path) ? operationsUrl : baseUrl) + path, { method, headers, body });
    const text = await response.text();
    const parsed = parseJson(text);
    if (options.contract !== false) await checkContract(method, path, response, text, parsed);
    return { status: response.status, headers: response.headers, text, body: parsed };
  }

  async function checkedFetch(input: Request): Promise<Response> {
    const response = await fetch(input);
    const text = await response.clone().text();
    const parsed = parseJson(text);
    await checkContract(input.method, input.url, response, text, parsed);
    return response;
  }

  return {
    app,
    baseUrl,
    database,
    sql,
    request,
    fetch: checkedFetch,
    async close() {
      await sql.end();
      await stop();
    },
  };
}

/**
 * A suite's app: started before its tests (with the start-up timeout an embedded database needs) and
 * closed after them. The returned object forwards to the app once it runs.
 */
export function useTestApp(env: Record<string, string> = {}): TestApp {
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await startTestApp(env);
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await started?.close();
  }, STARTUP_TIMEOUT_MS);
  const current = (): TestApp => {
    if (!started) throw new Error('The test app is used before beforeAll started it');
    return started;
  };
  return {
    get app() {
      return current().app;
    },
    get baseUrl() {
      return current().baseUrl;
    },
    get database() {
      return current().database;
    },
    get sql() {
      return current().sql;
    },
    request: (method, path, options) => current().request(method, path, options),
    fetch: (input) => current().fetch(input),
    close: () => current().close(),
  };
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The number of rows in the pets table. */
export async function countPets(testApp: TestApp): Promise<number> {
  const result = await testApp.sql.query<{ count: string }>('SELECT count(*) FROM pets');
  return Number(result.rows[0].count);
}
