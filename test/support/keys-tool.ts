import { parseScopes } from '../../apps/api/src/auth/api-key';
import { ApiKeysRepository } from '../../apps/api/src/auth/api-keys.repository';
import { sleep } from './load';
import { KEYS_CLI, ToolRun, run } from './processes';
import { parseExposition, valueOf } from './prometheus';
import type { TestApp, TestResponse } from './test-app';
import { AUTH } from './test-key';

const KEY_FORMAT = /^pet_[A-Za-z0-9_-]{43}$/;

/** The key tool (`node apps/api/dist/bin/keys.js`) on a suite's database; `issued` is every key it printed or issueKey made. */
export function keyTool(api: TestApp) {
  const issued: string[] = [];
  const keys = async (...args: string[]): Promise<ToolRun> => {
    const result = await run(process.execPath, [KEYS_CLI, ...args], { DATABASE_URL: api.database.url });
    if (KEY_FORMAT.test(result.stdout.trim())) issued.push(result.stdout.trim());
    return result;
  };
  const createKey = async (...args: string[]): Promise<{ id: string; key: string }> => {
    const result = await keys('create', ...args);
    expect(result).toMatchObject({ code: 0, stdout: expect.stringMatching(/^pet_[A-Za-z0-9_-]{43}\n$/) });
    return { id: /Created API key (\d+)/.exec(result.stderr)![1], key: result.stdout.trim() };
  };
  const listed = async () => JSON.parse((await keys('list', '--json')).stdout) as Record<string, unknown>[];
  /** A key made in this process by the repository the tool's create uses, for a test of what the service does with it (a run of the tool costs 0.6 s of CPU). */
  const issueKey = async (label: string, scopes?: string): Promise<{ id: string; key: string }> => {
    const { key, record } = await api.app.get(ApiKeysRepository).create({ label, scopes: parseScopes(scopes) });
    issued.push(key);
    return { id: record.id, key };
  };
  return { issued, keys, createKey, listed, issueKey };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** `read()` every `pauseMs` until it gives a value (what it gave then), or `ms` have passed (undefined). */
export async function poll<T>(read: () => Promise<T | null | undefined | false>, ms: number, pauseMs = 100): Promise<T | undefined> {
  for (const started = Date.now(); Date.now() - started < ms; await sleep(pauseMs)) {
    const value = await read();
    if (value) return value;
  }
}

/** GET /v1/pets with `key` until it is no longer 200 or `ms` have passed (asked once at least): the last answer. */
export async function untilRefused(api: TestApp, key: string, ms: number, pauseMs = 100): Promise<TestResponse> {
  const started = Date.now();
  let response = await api.request('GET', '/v1/pets', { headers: bearer(key) });
  while (response.status === 200 && Date.now() - started < ms) {
    await sleep(pauseMs);
    response = await api.request('GET', '/v1/pets', { headers: bearer(key) });
  }
  return response;
}

export const lastUsedAt = async (api: TestApp, id: string): Promise<Date | null> =>
  (await api.sql.query<{ last_used_at: Date | null }>('SELECT last_used_at FROM api_keys WHERE id = $1', [id])).rows[0].last_used_at;

/**
 * True once the service's pool runs no statement and has none waiting (within 10 s): a write that an answer already
 * received set off (it asks the pool before the answer is sent) has ended by then.
 */
export async function poolSettled(api: TestApp): Promise<boolean> {
  const settled = async () => {
    const samples = parseExposition((await api.request('GET', '/metrics', { contract: false })).text);
    const gauge = (name: string) => valueOf(samples, `petstore_db_pool_${name}`);
    return gauge('connections') === gauge('idle_connections') && gauge('waiting_requests') === 0;
  };
  return (await poll(settled, 10_000)) ?? false;
}

/** `task` for each item, at most `limit` at a time (each a process of its own), results in the items' order. */
export async function eachLimited<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await task(items[index]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The database holds none of `issued` (nor the suite's API_KEYS entry), whole or without its prefix: every table dumped as text. */
export async function expectNoPlainKey(api: TestApp, issued: string[], expected: string): Promise<void> {
  const tables = await api.sql.query<{ name: string }>(
    `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
     WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`,
  );
  expect(tables.rows.map((t) => t.name)).toContain('public.api_keys');
  let dump = '';
  for (const { name } of tables.rows) {
    const rows = await api.sql.query(`SELECT t::text AS row FROM ${name} t`);
    dump += rows.rows.map((r) => r.row).join('\n');
  }
  expect(dump).toContain(expected);
  for (const key of [...issued, AUTH.authorization.slice('Bearer '.length)]) {
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(key.slice(4));
  }
}
