import { generateApiKey, hashApiKey } from '../../apps/api/src/auth/api-key';
import { KEYS_CLI, run } from '../support/processes';
import { expectError } from '../support/expectations';
import { parseExposition, valueOf } from '../support/prometheus';
import { useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';

// Waits for the service's 5-second batches on a shared machine.
jest.setTimeout(60_000);

const METRICS_TOKEN = 'deprecated-calls-e2e-2b7c9d4e1f0a3b6c8d5e';
const WRITES = { statement: 'api_keys_record_deprecated_calls', outcome: 'ok' };

/** Who still calls getPet (deprecated, sunset 5 December 2030): per key in `keys list`, per operation in /metrics. */
describe('deprecated-call tracking (e2e)', () => {
  const api = useTestApp({ METRICS_TOKEN, RATE_LIMIT_PER_MINUTE: '0' });
  const caller = generateApiKey();
  const quiet = generateApiKey();
  let callerId: string;
  let petId: number;

  const scrape = async () => {
    const response = await fetch(`${api.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    return parseExposition(await response.text());
  };
  const getPet = (key: string, id: number) => api.request('GET', `/v1/pets/${id}`, { headers: { authorization: `Bearer ${key}` } });
  const stored = async () =>
    (await api.sql.query<{ id: string; last_deprecated_call_at: Date | null }>('SELECT id, last_deprecated_call_at FROM api_keys ORDER BY id')).rows;

  beforeAll(async () => {
    const inserted = await api.sql.query<{ id: string }>(
      `INSERT INTO api_keys (label, key_hash, scopes) VALUES ('still calls getPet', $1, '{pets:read}'), ('moved on', $2, '{pets:read}') RETURNING id`,
      [hashApiKey(caller), hashApiKey(quiet)],
    );
    callerId = inserted.rows[0].id;
    const created = await api.request('POST', '/v1/pets', { headers: AUTH, body: { name: 'Rex', categoryId: 1 } });
    petId = (created.body as { id: number }).id;
  });

  it('exports the counter of each deprecated operation from the start, at 0', async () => {
    expect(valueOf(await scrape(), 'petstore_deprecated_calls_total', { operation: 'getPet' })).toBe(0);
  });

  it('counts every answered call by operation, and records the time per key at most once a minute', async () => {
    const before = Date.now();
    expect((await getPet(caller, petId)).status).toBe(200);
    expect((await getPet(caller, 999_999)).status).toBe(404);
    expect((await getPet(caller, petId)).status).toBe(200);
    expect((await api.request('GET', '/v1/pets', { headers: { authorization: `Bearer ${quiet}` } })).status).toBe(200);
    expect((await api.request('GET', `/v1/pets/${petId}`)).status).toBe(401);

    let samples = await scrape();
    expect(valueOf(samples, 'petstore_deprecated_calls_total', { operation: 'getPet' })).toBe(4);

    // Written in the background, after the answer: wait for it.
    let rows = await stored();
    while (!rows.find((r) => r.id === callerId)?.last_deprecated_call_at) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      rows = await stored();
    }
    const recorded = rows.find((r) => r.id === callerId)!.last_deprecated_call_at!;
    expect(recorded.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(rows.find((r) => r.id !== callerId)?.last_deprecated_call_at).toBeNull();

    // More calls within the minute: no further write (one statement for three calls). A second write would
    // start with this call's answer, as the first did; a second is ample for it to end and be counted.
    expect((await getPet(caller, petId)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    samples = await scrape();
    expect(valueOf(samples, 'petstore_db_statement_duration_seconds_count', WRITES)).toBe(1);
    expect((await stored()).find((r) => r.id === callerId)?.last_deprecated_call_at).toEqual(recorded);
  });

  it('keys list shows the time in a column and in --json', async () => {
    const table = await run(process.execPath, [KEYS_CLI, 'list'], { DATABASE_URL: api.database.url });
    expect(table.code).toBe(0);
    const [header, ...lines] = table.stdout.trimEnd().split('\n');
    expect(header).toMatch(/REPLACED BY\s+LAST DEPRECATED CALL$/);
    const callerLine = lines.find((line) => line.startsWith(`${callerId} `));
    expect(callerLine).toMatch(/ \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(lines.find((line) => line.includes('moved on'))).toMatch(/ -$/);

    const json = await run(process.execPath, [KEYS_CLI, 'list', '--json'], { DATABASE_URL: api.database.url });
    const keys = JSON.parse(json.stdout) as { id: string; lastDeprecatedCallAt: string | null }[];
    const rows = await stored();
    expect(keys.map((k) => [k.id, k.lastDeprecatedCallAt])).toEqual(rows.map((r) => [r.id, r.last_deprecated_call_at?.toISOString() ?? null]));
  });

  it('neither marks nor counts the 404 of an unknown path that the route of getPet matches with an empty id (/v1/pets/)', async () => {
    const deprecationHeaders = (response: { headers: Headers }) => ['deprecation', 'sunset', 'link'].map((name) => response.headers.get(name));
    const before = valueOf(await scrape(), 'petstore_deprecated_calls_total', { operation: 'getPet' }) ?? 0;
    const unknown = await api.request('GET', '/v1/pets/', { headers: { authorization: `Bearer ${caller}` } });
    expectError(unknown, 404, 'not_found', 'No route matches GET /v1/pets/');
    expect(deprecationHeaders(unknown)).toEqual([null, null, null]);
    // getPet's own 404 is a call of the operation: marked, as the document says, and counted.
    const missing = await getPet(caller, 999_999);
    expectError(missing, 404, 'not_found', 'No pet with id 999999');
    expect(deprecationHeaders(missing)).toEqual(['@1767225600', 'Thu, 05 Dec 2030 00:00:00 GMT', '</v1/pets>; rel="successor-version"']);
    expect(valueOf(await scrape(), 'petstore_deprecated_calls_total', { operation: 'getPet' })).toBe(before + 1);
  });
});
