import { STARTUP_TIMEOUT_MS, useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';
import { JSON_CONTENT_TYPE, expectValidationFailed, seedPets, truncatePets } from '../support/expectations';

const LIMIT_RULE = 'limit must be an integer from 1 to 100';
const STATUS_RULE = 'status must be one of: available, pending, sold';
const STATUSES = ['available', 'pending', 'sold'];

/** 105 pets, ids 1..105, statuses cycling available, pending, sold. */
const SEED = Array.from({ length: 105 }, (_, i) => ({ name: `Pet ${i + 1}`, categoryId: (i % 7) + 1, status: STATUSES[i % 3] }));
const pet = (id: number) => ({ id, ...SEED[id - 1] });
const ids = (body: { id: number }[]) => body.map((p) => p.id);

describe('listPets: GET /v1/pets (e2e)', () => {
  const api = useTestApp();

  beforeAll(async () => {
    await truncatePets(api);
    await seedPets(api, SEED);
  }, STARTUP_TIMEOUT_MS);

  const list = (query = '') => api.request('GET', `/v1/pets${query}`, { headers: AUTH });

  it('answers 200 with a bare JSON array of the first 20 pets in ascending id order when limit is omitted', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_CONTENT_TYPE);
    expect(response.body).toEqual(Array.from({ length: 20 }, (_, i) => pet(i + 1)));
  });

  it('writes ids and categoryIds as JSON numbers', async () => {
    const response = await list('?limit=1');
    expect(response.text).toBe('[{"id":1,"name":"Pet 1","categoryId":1,"status":"available"}]');
  });

  it.each([
    ['1', 1],
    ['7', 7],
    ['100', 100],
    ['05', 5],
  ])('limit=%s returns at most that many', async (limit, count) => {
    const response = await list(`?limit=${limit}`);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  });

  it.each(STATUSES)('status=%s returns only pets with that status, in id order, 20 by default', async (status) => {
    const response = await list(`?status=${status}`);
    expect(response.status).toBe(200);
    const expected = SEED.map((_, i) => pet(i + 1))
      .filter((p) => p.status === status)
      .slice(0, 20);
    expect(response.body).toEqual(expected);
  });

  it('combines status and limit', async () => {
    const response = await list('?status=sold&limit=3');
    expect(ids(response.body)).toEqual([3, 6, 9]);
  });

  it('answers an empty array when nothing matches', async () => {
    await api.sql.query("UPDATE pets SET status = 'available' WHERE status = 'pending'");
    try {
      const response = await list('?status=pending');
      expect(response.status).toBe(200);
      expect(response.text).toBe('[]');
    } finally {
      await truncatePets(api);
      await seedPets(api, SEED);
    }
  });

  it('answers JSON whatever Accept asks: Accept is not negotiated', async () => {
    const response = await api.request('GET', '/v1/pets?limit=1', { headers: { ...AUTH, accept: 'application/xml' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_CONTENT_TYPE);
    expect(ids(response.body)).toEqual([1]);
  });

  it('ignores unknown query parameters', async () => {
    const response = await list('?limit=2&colour=brown&offset=50');
    expect(ids(response.body)).toEqual([1, 2]);
  });

  it.each([
    ['limit=0'],
    ['limit=101'],
    ['limit=abc'],
    ['limit=1.5'],
    ['limit='],
    ['limit'],
    ['limit=-1'],
    ['limit=%2B5'],
    ['limit=%205'],
    ['limit=5%20'],
    ['limit=1e1'],
    ['limit=0x10'],
    ['limit=99999999999999999999'],
  ])('refuses %s with 400', async (query) => {
    expectValidationFailed(await list(`?${query}`), ['limit', LIMIT_RULE]);
  });

  it.each([['status=lost'], ['status='], ['status=AVAILABLE'], ['status=available%00']])('refuses %s with 400', async (query) => {
    expectValidationFailed(await list(`?${query}`), ['status', STATUS_RULE]);
  });

  it.each([
    ['limit=5&limit=6', 'limit'],
    ['limit=5&limit=5', 'limit'],
    ['status=sold&status=pending', 'status'],
    ['status=sold&status=sold', 'status'],
    ['cursor=abc&cursor=abc', 'cursor'],
  ])('refuses %s with 400 saying the parameter is given twice', async (query, field) => {
    expectValidationFailed(await list(`?${query}`), [field, `${field} must be given once`]);
  });

  it('reports both parameters when both are wrong', async () => {
    expectValidationFailed(await list('?status=lost&limit=0'), ['limit', LIMIT_RULE], ['status', STATUS_RULE]);
  });
});
