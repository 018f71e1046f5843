import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPetStoreClient } from '@petstore/client';
import { ContractChecker } from '../support/contract';
import { useTestApp } from '../support/test-app';
import { AUTH, TEST_API_KEY } from '../support/test-key';

const ROOT = join(__dirname, '..', '..');

describe('OpenAPI document and typed client (e2e)', () => {
  const api = useTestApp();
  let document: any;

  beforeAll(async () => {
    document = (await api.request('GET', '/docs/openapi.json')).body;
  });

  it('serves the document without a key, as JSON and as YAML', async () => {
    const json = await api.request('GET', '/docs/openapi.json');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.body.openapi).toMatch(/^3\./);
    const yaml = await api.request('GET', '/docs/openapi.yaml');
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('content-type')).toMatch(/yaml/);
    expect(yaml.text).toMatch(/^openapi: 3\.0\.0$/m);
    expect(yaml.text).toMatch(/operationId: getPet$/m);
  });

  it('equals the committed snapshot docs/openapi.json (regenerate it with `pnpm openapi:snapshot`)', () => {
    const snapshot = JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8'));
    expect(document).toEqual(snapshot);
  });

  it('catches an answer that breaks the contract', () => {
    const checker = new ContractChecker(document);
    const json = 'application/json; charset=utf-8';
    const pet = { id: 1, name: 'Rex', categoryId: 3, status: 'available' };
    expect(checker.problem('GET', '/v1/pets/1', 200, json, pet, JSON.stringify(pet))).toBeUndefined();
    expect(checker.problem('GET', '/v1/pets/1', 200, json, { ...pet, id: '1' }, '')).toMatch(/does not match .*must be integer/);
    expect(checker.problem('GET', '/v1/pets', 200, json, pet, '')).toMatch(/must be array/);
    expect(checker.problem('GET', '/v1/pets', 200, 'text/plain', [], '[]')).toMatch(/not application\/json/);
    expect(checker.problem('GET', '/v1/pets', 418, json, {}, '{}')).toMatch(/status 418 is not documented/);
    expect(checker.problem('DELETE', '/v1/pets', 200, json, [], '[]')).toMatch(/no documented operation/);
    const notFound = { code: 'not_found', message: 'No route', status: 404 };
    expect(checker.problem('GET', '/v1/nothing', 404, json, notFound, '')).toBeUndefined();
    expect(checker.problem('GET', '/v1/nothing', 404, json, { message: 'x' }, '')).toMatch(/required property 'code'/);
    expect(checker.problem('GET', '/v1/pets/1', 404, json, { ...notFound, status: 400 }, '')).toMatch(/says status 400, the answer is 404/);
    expect(checker.problem('HEAD', '/v1/pets', 200, json, undefined, '')).toBeUndefined();
    const malformed = { code: 'malformed_json', message: 'x', status: 400 };
    expect(checker.problem('GET', '/v1/pets', 400, json, malformed, '')).toMatch(
      /answered code malformed_json, which its examples do not show \(validation_failed/,
    );
    expect(checker.problem('POST', '/v1/pets', 400, json, malformed, '')).toBeUndefined();
    expect(checker.problem('POST', '/v1/pets', 201, json, pet, '', new Headers())).toMatch(/lacks the required header\(s\) Location/);
    expect(checker.problem('POST', '/v1/pets', 201, json, pet, '', new Headers({ location: '/v1/pets/1' }))).toBeUndefined();
    expect(checker.problem('GET', '/v1/pets/1', 200, json, pet, '', new Headers())).toMatch(
      /lacks the required header\(s\) Deprecation, Sunset, Link/,
    );
  });

  it('documents every kind of answer the service gives (request() checks each against the document)', async () => {
    const answers: [string, string, Record<string, string>, unknown, number][] = [
      ['GET', '/v1/pets?limit=101', AUTH, undefined, 400],
      ['POST', '/v1/pets', AUTH, '{"name":', 400],
      ['POST', '/v1/pets', { ...AUTH, 'content-type': 'text/plain' }, 'Rex', 415],
      ['POST', '/v1/pets', AUTH, { name: 'x'.repeat(70 * 1024), categoryId: 1 }, 413],
      ['GET', '/v1/pets/abc', AUTH, undefined, 400],
      ['GET', '/v1/pets/1', {}, undefined, 401],
      ['GET', '/v1/store/orders', AUTH, undefined, 501],
      ['GET', '/v1/store/orders', {}, undefined, 401],
      ['DELETE', '/v1/pets', AUTH, undefined, 405],
      ['GET', '/pets', AUTH, undefined, 404],
      ['HEAD', '/v1/pets', AUTH, undefined, 200],
    ];
    for (const [method, path, headers, body, status] of answers) {
      const response = await api.request(method, path, { headers, body });
      expect(`${method} ${path} ${response.status}`).toBe(`${method} ${path} ${status}`);
    }
  });

  describe('@petstore/client against the running service', () => {
    const client = () => createPetStoreClient({ baseUrl: `${api.baseUrl}/v1`, apiKey: TEST_API_KEY, fetch: api.fetch });

    beforeAll(async () => {
      await api.sql.query('TRUNCATE pets RESTART IDENTITY');
    });

    it('creates, lists and gets animals', async () => {
      const created = await client().POST('/pets', { body: { name: 'Rex', categoryId: 3, status: 'pending' } });
      expect(created.response.status).toBe(201);
      expect(created.data).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'pending' });
      await client().POST('/pets', { body: { name: 'Tom', categoryId: 4 } });

      const pending = await client().GET('/pets', { params: { query: { status: 'pending', limit: 10 } } });
      expect(pending.response.status).toBe(200);
      expect(pending.data).toEqual([{ id: 1, name: 'Rex', categoryId: 3, status: 'pending' }]);

      const one = await client().GET('/pets/{petId}', { params: { path: { petId: 2 } } });
      expect(one.response.status).toBe(200);
      expect(one.data).toEqual({ id: 2, name: 'Tom', categoryId: 4, status: 'available' });
      expect(one.response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    });

    it('returns the Error bodies of 400, 401 and 404', async () => {
      const invalid = await client().GET('/pets', { params: { query: { limit: 0 } } });
      expect(invalid.response.status).toBe(400);
      expect(invalid.error).toMatchObject({ code: 'validation_failed', status: 400, message: expect.stringContaining('limit') });

      const anonymous = createPetStoreClient({ baseUrl: `${api.baseUrl}/v1`, fetch: api.fetch });
      const unauthorized = await anonymous.GET('/pets');
      expect(unauthorized.response.status).toBe(401);
      expect(unauthorized.error).toEqual({
        code: 'unauthorized',
        message: 'An API key is required: send "Authorization: Bearer <API key>"',
        status: 401,
      });

      const missing = await client().GET('/pets/{petId}', { params: { path: { petId: 999 } } });
      expect(missing.response.status).toBe(404);
      expect(missing.error).toMatchObject({ code: 'not_found', status: 404 });
    });

    it('has the same Error body as the harness for an unknown route', async () => {
      const response = await api.request('GET', '/v1/nothing', { headers: AUTH });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'not_found', status: 404 });
    });
  });
});
