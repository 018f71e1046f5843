import { STARTUP_TIMEOUT_MS, useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';
import {
  JSON_CONTENT_TYPE,
  expectDeprecationHeaders,
  expectError,
  expectInvalidKey,
  expectMissingKey,
  expectValidationFailed,
  seedPets,
  truncatePets,
} from '../support/expectations';

const ID_RULE = 'petId must be an integer from 1 to 9223372036854775807';

describe('getPet: GET /v1/pets/{petId} (deprecated) (e2e)', () => {
  const api = useTestApp();

  beforeAll(async () => {
    await truncatePets(api);
    await seedPets(api, [
      { name: 'Rex', categoryId: 3, status: 'pending' },
      { name: 'Tom 🐱', categoryId: 9007199254740991, status: 'sold' },
    ]);
  }, STARTUP_TIMEOUT_MS);

  const get = (id: string) => api.request('GET', `/v1/pets/${id}`, { headers: AUTH });

  it('answers 200 with the Pet, ids as JSON numbers, and the deprecation headers', async () => {
    const response = await get('1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_CONTENT_TYPE);
    expect(response.text).toBe('{"id":1,"name":"Rex","categoryId":3,"status":"pending"}');
    expectDeprecationHeaders(response);
  });

  it('returns the largest categoryId and an astral name unchanged', async () => {
    const response = await get('2');
    expect(response.text).toBe('{"id":2,"name":"Tom 🐱","categoryId":9007199254740991,"status":"sold"}');
  });

  it('returns a pet just created through the API', async () => {
    const created = await api.request('POST', '/v1/pets', { headers: AUTH, body: { name: 'New', categoryId: 5 } });
    const response = await api.request('GET', created.headers.get('location')!, { headers: AUTH });
    expect(response.status).toBe(200);
    expect(response.text).toBe(created.text);
  });

  it.each(['01', '0001', '00000000000000000000001'])('reads leading zeros as the same id (%s)', async (id) => {
    const response = await get(id);
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(1);
  });

  it.each(['999', '9007199254740993', '9223372036854775807'])('answers 404 for an id with no pet (%s), with the deprecation headers', async (id) => {
    const response = await get(id);
    expectError(response, 404, 'not_found', `No pet with id ${id}`);
    expectDeprecationHeaders(response);
  });

  it.each(['0', '00', '-1', 'abc', '1.5', '1e3', '%2B1', '%201', '1%20', '0x1', '9223372036854775808', '99999999999999999999', '１', '1abc'])(
    'answers 400 for petId %s, with the deprecation headers',
    async (id) => {
      const response = await get(id);
      expectValidationFailed(response, ['petId', ID_RULE]);
      expectDeprecationHeaders(response);
    },
  );

  it('answers 400 for a very long id rather than 404', async () => {
    expectValidationFailed(await get('1'.repeat(1000)), ['petId', ID_RULE]);
  });

  it('answers 401 without a key, with the deprecation headers', async () => {
    const response = await api.request('GET', '/v1/pets/1');
    expectMissingKey(response);
    expectDeprecationHeaders(response);
  });

  it('answers 401 for an unknown key, with the deprecation headers', async () => {
    const response = await api.request('GET', '/v1/pets/1', { headers: { authorization: 'Bearer wrong-key' } });
    expectInvalidKey(response);
    expectDeprecationHeaders(response);
  });

  it('puts the deprecation headers on getPet only', async () => {
    const response = await api.request('GET', '/v1/pets', { headers: AUTH });
    expect([response.headers.get('deprecation'), response.headers.get('sunset'), response.headers.get('link')]).toEqual([null, null, null]);
  });
});
