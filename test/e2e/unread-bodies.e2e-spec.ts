import { AUTH, TEST_API_KEY, useTestApp } from '../support/test-app';
import { expectInvalidKey } from '../support/expectations';
import { floodBody, sendRaw } from '../support/raw-http';

/**
 * A body is read only where one is taken (`POST /v1/pets`), and only once the request may be served:
 * everywhere else the answer comes at once with `Connection: close` and the rest is not read.
 */
describe('bodies nobody takes are not read (e2e)', () => {
  const api = useTestApp({ CORS_ORIGINS: 'https://app.example.com', REQUEST_TIMEOUT_MS: '30000' });
  // What loopback's kernel buffers hold on both sides is a few MB; a server that reads on takes 64 MB.
  const UNREAD = 16 * 1024 * 1024;

  it.each([
    ['GET /v1/pets without a key', 'GET /v1/pets', '', 401],
    ['GET /v1/pets with a key', 'GET /v1/pets', `Authorization: Bearer ${TEST_API_KEY}\r\n`, 200],
    ['a 404', 'GET /nowhere', '', 404],
    ['a 405', 'DELETE /v1/pets', '', 405],
    ['POST on a 405', 'POST /v1/pets/1', '', 405],
    ['liveness', 'GET /health/live', '', 200],
    ['metrics', 'GET /metrics', '', 200],
    ['Swagger UI', 'GET /docs', '', 200],
    ['an OPTIONS', 'OPTIONS /v1/pets', '', 405],
    ['POST /v1/pets with no key', 'POST /v1/pets', 'Content-Type: application/json\r\n', 401],
    ['POST /v1/pets with an invalid media type and no key', 'POST /v1/pets', 'Content-Type: a\r\n', 401],
    ['POST /v1/pets with an invalid media type and a key', 'POST /v1/pets', `Content-Type: a\r\nAuthorization: Bearer ${TEST_API_KEY}\r\n`, 415],
    ['POST /v1/pets of text/plain with a key', 'POST /v1/pets', `Content-Type: text/plain\r\nAuthorization: Bearer ${TEST_API_KEY}\r\n`, 415],
  ])('%s: answers, closes, and reads no endless chunked body', async (_case, line, headers, status) => {
    const result = await floodBody(api.baseUrl, `${line} HTTP/1.1\r\nHost: x\r\n${headers}Transfer-Encoding: chunked\r\n\r\n`);
    expect(result.answer?.status).toBe(status);
    expect(result.answer?.headers.connection).toBe('close');
    expect(result.answer?.headers['x-request-id']).toBeDefined();
    expect(result.closed).toBe(true);
    expect(result.bytesSent).toBeLessThan(UNREAD);
  });

  it('answers a POST without a Bearer header 401 without waiting for its declared body', async () => {
    const head = 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"name":';
    const result = await sendRaw(api.baseUrl, head, 4000);
    expect(result.answer?.status).toBe(401);
    expect(result.answer?.body?.code).toBe('unauthorized');
    expect(result.answer?.headers.connection).toBe('close');
  });

  it('answers a POST with an invalid media type 415 after authentication, without waiting for its body', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: a\r\nContent-Length: 60000\r\n\r\n`;
    const result = await sendRaw(api.baseUrl, head, 4000);
    expect(result.answer?.status).toBe(415);
    expect(result.answer?.body?.code).toBe('unsupported_media_type');
  });

  it('still reads and serves a well-formed create, on a connection kept alive', async () => {
    const body = JSON.stringify({ name: 'Kept', categoryId: 1 });
    const one = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const result = await sendRaw(api.baseUrl, one + `GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 4000);
    expect(result.answer?.status).toBe(201);
    expect([...result.raw.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1])).toEqual(['201', '200']);
    expect((await api.request('GET', '/v1/pets', { headers: AUTH })).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Kept' })]),
    );
  });
});

describe('a body is parsed only after authentication (e2e)', () => {
  const api = useTestApp({ AUTH_FAILURES_PER_MINUTE: '2' });
  // 64 KiB of JSON: parsing it costs ~18 times a plain 401.
  const body = JSON.stringify({ name: 'x', categoryId: 1, filler: 'a'.repeat(60 * 1024) });
  const parsed = (spy: jest.SpyInstance) => spy.mock.calls.filter(([text]) => typeof text === 'string' && text.includes('"filler"')).length;

  afterEach(() => jest.restoreAllMocks());

  it('does not parse the body of a request whose key is refused', async () => {
    const spy = jest.spyOn(JSON, 'parse');
    const response = await api.request('POST', '/v1/pets', { headers: { authorization: 'Bearer not-a-key-0123456789abcdef' }, body });
    expectInvalidKey(response);
    expect(parsed(spy)).toBe(0);
  });

  it('answers an address refused for failed authentications without reading the body it announces', async () => {
    for (let i = 0; i < 2; i++) await api.request('GET', '/v1/pets', { headers: { authorization: 'Bearer not-a-key-0123456789abcdef' } });
    const spy = jest.spyOn(JSON, 'parse');
    // A key of the right shape that no cache holds: it would need a look-up, which the refused address
    // gets at most once a second (401 then), else 429. Either way the body is never waited for.
    const unknown = `pet_${'A'.repeat(43)}`;
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${unknown}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const result = await sendRaw(api.baseUrl, head, 4000);
    expect([429, 401]).toContain(result.answer?.status);
    expect(result.answer?.body?.code).toBe(result.answer?.status === 429 ? 'rate_limited' : 'unauthorized');
    expect(parsed(spy)).toBe(0);
  });

  it('reads the body of a key that passes a refused address anyway (an API_KEYS entry)', async () => {
    for (let i = 0; i < 2; i++) await api.request('GET', '/v1/pets', { headers: { authorization: 'Bearer not-a-key-0123456789abcdef' } });
    const response = await api.request('POST', '/v1/pets', { headers: AUTH, body: { name: 'Rex', categoryId: 1 } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'Rex', categoryId: 1, status: 'available' });
  });
});
