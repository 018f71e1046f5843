import { countPets, useTestApp } from '../support/test-app';
import { AUTH, TEST_API_KEY } from '../support/test-key';
import { expectDeprecationHeaders, expectInvalidKey, expectMissingKey, seedPets, truncatePets } from '../support/expectations';

const VALID_PET = { name: 'Rex', categoryId: 3 };

/** Every operation, with a request and the status it gets when a valid key is sent. */
const OPERATIONS: [string, string, string, number, unknown?][] = [
  ['listPets', 'GET', '/v1/pets', 200],
  ['createPet', 'POST', '/v1/pets', 201, VALID_PET],
  ['getPet', 'GET', '/v1/pets/1', 200],
  ['listOrders', 'GET', '/v1/store/orders', 501],
];

describe('authentication (e2e)', () => {
  const api = useTestApp();
  beforeEach(async () => {
    await truncatePets(api);
    await seedPets(api, [{ name: 'Seed', categoryId: 1, status: 'available' }]);
  });

  describe.each(OPERATIONS)('%s (%s %s)', (_name, method, path, authenticatedStatus, body) => {
    it('answers 401 with WWW-Authenticate: Bearer when no key is sent, and stores nothing', async () => {
      expectMissingKey(await api.request(method, path, { body }));
      expect(await countPets(api)).toBe(1);
    });

    it('answers 401 with error="invalid_token" for an unknown key, and stores nothing', async () => {
      expectInvalidKey(await api.request(method, path, { headers: { authorization: 'Bearer pet_not-a-known-key' }, body }));
      expect(await countPets(api)).toBe(1);
    });

    it(`passes with the valid key (${authenticatedStatus})`, async () => {
      const response = await api.request(method, path, { headers: AUTH, body });
      expect(response.status).toBe(authenticatedStatus);
    });
  });

  it.each(['bearer', 'BEARER', 'BeArEr'])('accepts the scheme name spelled %s (case-insensitive)', async (scheme) => {
    const response = await api.request('GET', '/v1/pets', { headers: { authorization: `${scheme} ${TEST_API_KEY}` } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ id: 1, name: 'Seed', categoryId: 1, status: 'available' }]);
  });

  it.each([
    ['the scheme alone', 'Bearer'],
    ['another scheme', `Basic ${Buffer.from(`user:${TEST_API_KEY}`).toString('base64')}`],
    ['a token without a scheme', TEST_API_KEY],
    ['a Token scheme', `Token ${TEST_API_KEY}`],
  ])('refuses %s as a missing key', async (_case, authorization) => {
    expectMissingKey(await api.request('GET', '/v1/pets', { headers: { authorization } }));
  });

  it.each([
    ['two spaces before the key', `Bearer  ${TEST_API_KEY}`],
    ['a trailing word', `Bearer ${TEST_API_KEY} extra`],
    ['the key with a character changed', `Bearer ${TEST_API_KEY.slice(0, -1)}X`],
    ['a prefix of the key', `Bearer ${TEST_API_KEY.slice(0, 16)}`],
  ])('refuses %s as an invalid key', async (_case, authorization) => {
    expectInvalidKey(await api.request('GET', '/v1/pets', { headers: { authorization } }));
  });

  describe('access_token outside the Authorization header is ignored', () => {
    it('in the query string it does not authenticate', async () => {
      expectMissingKey(await api.request('GET', `/v1/pets?access_token=${TEST_API_KEY}`));
    });

    it('in the query string it does not disturb a valid header', async () => {
      const response = await api.request('GET', '/v1/pets?access_token=wrong', { headers: AUTH });
      expect(response.status).toBe(200);
    });

    it('in a JSON body it does not authenticate, and nothing is stored', async () => {
      expectMissingKey(await api.request('POST', '/v1/pets', { body: { ...VALID_PET, access_token: TEST_API_KEY } }));
      expect(await countPets(api)).toBe(1);
    });

    it('in a form body it does not authenticate (401, not 415), and nothing is stored', async () => {
      const response = await api.request('POST', '/v1/pets', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `access_token=${TEST_API_KEY}&name=Rex&categoryId=3`,
      });
      expectMissingKey(response);
      expect(await countPets(api)).toBe(1);
    });
  });

  describe('authentication is checked before the body and the id', () => {
    it.each([
      ['malformed JSON', 'application/json', '{bad'],
      ['invalid values', 'application/json', JSON.stringify({ name: '', categoryId: 0, id: 5 })],
      ['a body that is not JSON', 'text/plain', 'hello'],
      // Fastify refuses a malformed media type (415) before any guard.
      ['a malformed Content-Type', 'application/json, text/plain', JSON.stringify({ name: 'Rex', categoryId: 1 })],
      ['an empty Content-Type', '', JSON.stringify({ name: 'Rex', categoryId: 1 })],
      ['a body over 64 KiB', 'application/json', JSON.stringify({ name: 'x'.repeat(70_000), categoryId: 1 })],
      ['an empty body', 'application/json', ''],
    ])('createPet with %s and no key is 401, and stores nothing', async (_case, contentType, body) => {
      expectMissingKey(await api.request('POST', '/v1/pets', { headers: { 'content-type': contentType }, body }));
      expect(await countPets(api)).toBe(1);
    });

    it.each(['abc', '0', '9223372036854775808', '999'])('getPet /v1/pets/%s with no key is 401, with the deprecation headers', async (id) => {
      const response = await api.request('GET', `/v1/pets/${id}`);
      expectMissingKey(response);
      expectDeprecationHeaders(response);
    });

    it('listPets with an invalid query and no key is 401', async () => {
      expectMissingKey(await api.request('GET', '/v1/pets?limit=0&status=lost'));
    });
  });
});
