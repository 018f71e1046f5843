import { KEYS_CLI, ToolRun, run } from './processes';
import { AUTH, TestApp } from './test-app';

const KEY_FORMAT = /^pet_[A-Za-z0-9_-]{43}$/;

/** The key tool (`node apps/api/dist/bin/keys.js`) on a suite's database; `issued` is every key it printed. */
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
  return { issued, keys, createKey, listed };
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
