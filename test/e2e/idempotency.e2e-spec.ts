import { hashRequestBody } from '../../apps/api/src/idempotency/idempotency.service';
import { expectError, expectValidationFailed } from '../support/expectations';
import { countPets, startTestApp, useTestApp } from '../support/test-app';
import { AUTH, TEST_API_KEY, TEST_KEY_ID } from '../support/test-key';

const SECOND_KEY = 'second-key-0123456789abcdefghijklmn';

describe('Idempotency-Key on POST /v1/pets (e2e)', () => {
  const api = useTestApp({ API_KEYS: `${TEST_API_KEY},${SECOND_KEY}`, RATE_LIMIT_PER_MINUTE: '0' });
  const post = (key: string | undefined, body: unknown, auth = AUTH) =>
    api.request('POST', '/v1/pets', { headers: { ...auth, ...(key === undefined ? {} : { 'idempotency-key': key }) }, body });

  beforeEach(async () => {
    await api.sql.query('TRUNCATE pets RESTART IDENTITY');
    await api.sql.query('TRUNCATE idempotency_keys');
  });

  it('replays the first answer (status, body, Location) for the same key and body', async () => {
    const first = await post('"order-1"', { name: 'Rex', categoryId: 3 });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post('"order-1"', { categoryId: 3, name: 'Rex' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await countPets(api)).toBe(1);
  });

  it("keeps a key's records when API_KEYS is reordered: an entry is known by its digest, not its position", async () => {
    const second = { authorization: `Bearer ${SECOND_KEY}` };
    expect((await post('reorder-1', { name: 'Rex', categoryId: 3 }, second)).status).toBe(201);
    const reordered = await startTestApp({ API_KEYS: `${SECOND_KEY},${TEST_API_KEY}`, RATE_LIMIT_PER_MINUTE: '0' }, api.database);
    try {
      const again = await reordered.request('POST', '/v1/pets', {
        headers: { ...second, 'idempotency-key': 'reorder-1' },
        body: { name: 'Rex', categoryId: 3 },
      });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const byFirstKey = await reordered.request('POST', '/v1/pets', {
        headers: { ...AUTH, 'idempotency-key': 'reorder-1' },
        body: { name: 'Max', categoryId: 3 },
      });
      expect(byFirstKey.status).toBe(201);
      expect(byFirstKey.headers.get('idempotent-replayed')).toBeNull();
    } finally {
      await reordered.close();
    }
    expect(await countPets(api)).toBe(2);
  });

  it('answers 422 idempotency_key_reused for the same key with another body', async () => {
    expect((await post('order-2', { name: 'Rex', categoryId: 3 })).status).toBe(201);
    const other = await post('order-2', { name: 'Max', categoryId: 3 });
    expectError(other, 422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body');
    expect(await countPets(api)).toBe(1);
  });

  it('answers 409 request_in_progress while the first request with the key is still running', async () => {
    const body = { name: 'Rex', categoryId: 3 };
    await api.sql.query(`INSERT INTO idempotency_keys (api_key_id, idempotency_key, request_hash) VALUES ($2, 'running', $1)`, [
      hashRequestBody(body),
      TEST_KEY_ID,
    ]);
    const response = await post('running', body);
    expectError(response, 409, 'request_in_progress', 'A request with this Idempotency-Key is still being processed; retry later');
    expect(await countPets(api)).toBe(0);
  });

  it('creates exactly one pet from 8 parallel first requests with one key', async () => {
    const body = { name: 'Parallel', categoryId: 9 };
    const answers = await Promise.all(Array.from({ length: 8 }, () => post('parallel-1', body)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
    for (const a of answers.filter((a) => a.status === 409)) expect(a.body.code).toBe('request_in_progress');
    expect(await countPets(api)).toBe(1);
    // Once done, every retry replays it.
    const later = await post('parallel-1', body);
    expect(later.status).toBe(201);
    expect(later.body).toEqual(created[0].body);
  });

  it('scopes keys to the API key', async () => {
    const body = { name: 'Rex', categoryId: 3 };
    const mine = await post('shared', body);
    const theirs = await post('shared', body, { authorization: `Bearer ${SECOND_KEY}` });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(await countPets(api)).toBe(2);
  });

  it('keeps nothing for a request that failed, so it can be retried with the same key', async () => {
    const bad = await post('retry-1', { name: '', categoryId: 3 });
    expect(bad.status).toBe(400);
    const good = await post('retry-1', { name: 'Rex', categoryId: 3 });
    expect(good.status).toBe(201);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
  });

  it('forgets a key after 24 hours', async () => {
    expect((await post('old', { name: 'Rex', categoryId: 3 })).status).toBe(201);
    await api.sql.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours'`);
    const fresh = await post('old', { name: 'Max', categoryId: 3 });
    expect(fresh.status).toBe(201);
    expect(fresh.body.name).toBe('Max');
    expect(await countPets(api)).toBe(2);
  });

  it.each([
    ['empty', '""'],
    ['too long', 'k'.repeat(256)],
    ['with a space', 'a b'],
    ['opened but not closed by a quote', '"abc'],
    ['closed but not opened by a quote', 'abc"'],
  ])('refuses an Idempotency-Key that is %s with 400', async (_case, key) => {
    const response = await post(key, { name: 'Rex', categoryId: 3 });
    expectValidationFailed(response, ['Idempotency-Key', 'Idempotency-Key must be 1 to 255 visible ASCII characters, optionally in double quotes']);
    expect(await countPets(api)).toBe(0);
  });
});
