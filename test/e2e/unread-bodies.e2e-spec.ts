import { countPets, useTestApp } from '../support/test-app';
import { AUTH, TEST_API_KEY } from '../support/test-key';
import { expectError, expectInvalidKey } from '../support/expectations';
import { sendRaw } from '../support/raw-http';

/**
 * What is wrong with a body is told only after authentication, and a body is parsed only then.
 * (Bodies on routes that take none, and floods of them, are the edge's to refuse: HAProxy.)
 */
describe('bodies are judged after authentication (e2e)', () => {
  const api = useTestApp({ REQUEST_TIMEOUT_MS: '30000' });
  // 64 KiB of JSON: parsing it costs ~18 times a plain 401.
  const body = JSON.stringify({ name: 'x', categoryId: 1, filler: 'a'.repeat(60 * 1024) });
  const parsed = (spy: jest.SpyInstance) => spy.mock.calls.filter(([text]) => typeof text === 'string' && text.includes('"filler"')).length;

  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['no key', 'Content-Type: application/json\r\n', 401],
    ['text/plain and no key', 'Content-Type: text/plain\r\n', 401],
    // A header that is no media type at all: Fastify would refuse it before any guard (json-body.ts rewrites it).
    ['an unparsable Content-Type and no key', 'Content-Type: a\r\n', 401],
    ['an invalid media type and a key', `Content-Type: a\r\nAuthorization: Bearer ${TEST_API_KEY}\r\n`, 415],
    ['text/plain and a key', `Content-Type: text/plain\r\nAuthorization: Bearer ${TEST_API_KEY}\r\n`, 415],
  ])('answers POST /v1/pets with %s: %s, with a request id', async (_case, headers, status) => {
    const result = await sendRaw(
      api.baseUrl,
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${headers}Content-Length: 2\r\nConnection: close\r\n\r\n{}`,
      4000,
    );
    expect(result.answer?.status).toBe(status);
    expect(result.answer?.headers['x-request-id']).toBeDefined();
  });

  it('answers a POST with an invalid media type 415 after authentication, without waiting for its body', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: a\r\nContent-Length: 60000\r\n\r\n`;
    const result = await sendRaw(api.baseUrl, head, 4000);
    expect(result.answer?.status).toBe(415);
    expect(result.answer?.body?.code).toBe('unsupported_media_type');
  });

  it.each(['gzip', 'br', 'identity, gzip'])('refuses a body with Content-Encoding %s: 415, nothing stored, 401 without a key', async (coding) => {
    const create = JSON.stringify({ name: 'Encoded', categoryId: 1 });
    const before = await countPets(api);
    const headers = { 'content-type': 'application/json', 'content-encoding': coding };
    const response = await api.request('POST', '/v1/pets', { headers: { ...AUTH, ...headers }, body: create });
    expectError(response, 415, 'unsupported_media_type', 'The request body must not be encoded: Content-Encoding is not supported (send identity)');
    expect(await countPets(api)).toBe(before);
    expect((await api.request('POST', '/v1/pets', { headers, body: create })).status).toBe(401);
  });

  it('reads a body with Content-Encoding: identity', async () => {
    const body = JSON.stringify({ name: 'Plain', categoryId: 1 });
    const headers = { ...AUTH, 'content-type': 'application/json', 'content-encoding': 'identity' };
    expect((await api.request('POST', '/v1/pets', { headers, body })).status).toBe(201);
  });

  it('still reads and serves a well-formed create, on a connection kept alive', async () => {
    const create = JSON.stringify({ name: 'Kept', categoryId: 1 });
    const one = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${create.length}\r\n\r\n${create}`;
    const result = await sendRaw(api.baseUrl, one + `GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 4000);
    expect(result.answer?.status).toBe(201);
    expect([...result.raw.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1])).toEqual(['201', '200']);
    expect((await api.request('GET', '/v1/pets', { headers: AUTH })).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Kept' })]),
    );
  });

  it.each(['/nope', '/docs/openapi.json', '/v1/pets/abc'])('keeps the connection of a bodiless GET %s answered at once', async (path) => {
    const result = await sendRaw(
      api.baseUrl,
      `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\nGET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      4000,
    );
    expect(result.answer?.headers.connection).not.toBe('close');
    expect([...result.raw.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1])).toEqual([expect.any(String), '200']);
  });

  it('does not parse the body of a request whose key is refused', async () => {
    const spy = jest.spyOn(JSON, 'parse');
    const response = await api.request('POST', '/v1/pets', { headers: { authorization: 'Bearer not-a-key-0123456789abcdef' }, body });
    expectInvalidKey(response);
    expect(parsed(spy)).toBe(0);
  });
});
