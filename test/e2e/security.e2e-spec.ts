import { connect } from 'node:net';
import { useTestApp } from '../support/test-app';
import { AUTH, TEST_API_KEY } from '../support/test-key';

const HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  // Over plain HTTP: no HSTS (security-headers-tls.e2e-spec.ts covers TLS).
  'strict-transport-security': undefined,
  'cross-origin-resource-policy': 'same-origin',
};

/** Sends raw bytes and resolves with everything the server answered before closing. */
function raw(baseUrl: string, chunks: string[], gapMs: number): Promise<{ answer: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (data) => (answer += data.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, closedAfterMs: Date.now() - started });
    });
    let next = 0;
    const timer = setInterval(() => {
      if (next < chunks.length && !socket.destroyed) socket.write(chunks[next++]);
    }, gapMs);
  });
}

/** The parts of a raw HTTP answer. */
function parse(answer: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head, ...rest] = answer.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(rest.join('\r\n')) };
}

/** An answer of Node's HTTP parser, written as every other error answer is. */
function expectErrorAnswer(answer: string, status: number, code: string, message: string): void {
  const parsed = parse(answer);
  expect(parsed.status).toBe(status);
  expect(parsed.body).toEqual({ code, message, status });
  expect(parsed.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(parsed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  for (const [name, value] of Object.entries(HEADERS)) expect([name, parsed.headers[name]]).toEqual([name, value]);
}

describe('security headers, CORS and limits (e2e)', () => {
  const api = useTestApp({ REQUEST_TIMEOUT_MS: '2000' });

  it.each([
    ['a success', 'GET', '/v1/pets', AUTH, 200],
    ['a 401', 'GET', '/v1/pets', {}, 401],
    ['a 404', 'GET', '/nowhere', AUTH, 404],
    ['a 405', 'DELETE', '/v1/pets', AUTH, 405],
    ['a router error', 'GET', '/v1/pets/%E0%A4%A', AUTH, 400],
    ['the document', 'GET', '/docs/openapi.json', {}, 200],
    ['Swagger UI', 'GET', '/docs', {}, 200],
    ['health', 'GET', '/health/live', {}, 200],
  ])('puts the security headers on %s and no X-Powered-By', async (_case, method, path, headers, status) => {
    const response = await api.request(method, path, { headers });
    expect(response.status).toBe(status);
    for (const [name, value] of Object.entries(HEADERS)) expect([name, response.headers.get(name) ?? undefined]).toEqual([name, value]);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  it('serves Swagger UI with scripts of its own origin only, as the CSP requires', async () => {
    const html = (await api.request('GET', '/docs')).text;
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="\.?\/?docs\/|src="[^":]+"/);
      expect(body.trim()).toBe('');
    }
    const init = await api.request('GET', '/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
  });

  it('has CORS off unless configured', async () => {
    const response = await api.request('OPTIONS', '/v1/pets', {
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers 431 to headers over 16 KiB and keeps serving', async () => {
    const response = await raw(api.baseUrl, [`GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`], 10);
    expectErrorAnswer(response.answer, 431, 'headers_too_large', 'The request headers are larger than 16 KiB');
    expect((await api.request('GET', '/health/live')).status).toBe(200);
  });

  it.each([
    ['an unknown method', 'FOO /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'],
    [
      'Content-Length with Transfer-Encoding',
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    ['a header with a bad byte', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Bad: a\x01b\r\n\r\n'],
    ['a request line that is not HTTP', 'HELLO\r\n\r\n'],
  ])('answers %s refused by the HTTP parser with the Error body', async (_case, request) => {
    const response = await raw(api.baseUrl, [request], 10);
    expectErrorAnswer(response.answer, 400, 'malformed_request', 'The request is not valid HTTP/1.1');
  });

  it('closes a request that trickles in slower than REQUEST_TIMEOUT_MS with 408', async () => {
    const chunks = ['POST /v1/pets HTTP/1.1\r\n', 'Host: x\r\n', ...Array.from({ length: 30 }, (_, i) => `X-Slow-${i}: 1\r\n`)];
    const response = await raw(api.baseUrl, chunks, 300);
    expectErrorAnswer(response.answer, 408, 'request_timeout', 'The request did not arrive within the time allowed');
    expect(response.closedAfterMs).toBeGreaterThanOrEqual(2000);
    expect(response.closedAfterMs).toBeLessThan(6000);
  });

  it('closes a request whose body trickles in (headers complete, then a byte at a time) with 408 within REQUEST_TIMEOUT_MS', async () => {
    // With a key: a body without one is not read at all.
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n`;
    const response = await raw(api.baseUrl, [head, ...'{"name":"slow","categoryId":1,"x":"....."}'.split('')], 400);
    expectErrorAnswer(response.answer, 408, 'request_timeout', 'The request did not arrive within the time allowed');
    expect(response.closedAfterMs).toBeGreaterThanOrEqual(2000);
    expect(response.closedAfterMs).toBeLessThan(4500);
  });
});

describe('CORS when CORS_ORIGINS is set (e2e)', () => {
  const api = useTestApp({ CORS_ORIGINS: 'https://app.example.com' });

  it('answers the preflight of an allowed origin and exposes the API headers', async () => {
    // A CORS preflight belongs to the browser's protocol, not to the API: the document does not describe it.
    const preflight = await api.request('OPTIONS', '/v1/pets', {
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
      contract: false,
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
    expect(preflight.headers.get('x-request-id')).toBeTruthy(); // every answer carries one
    const response = await api.request('GET', '/v1/pets', { headers: { ...AUTH, origin: 'https://app.example.com' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    // What a browser client reads: the replay marker and the refusal's detail too.
    for (const name of ['X-Request-Id', 'Idempotent-Replayed', 'WWW-Authenticate'])
      expect(response.headers.get('access-control-expose-headers')?.split(', ')).toContain(name);
  });

  it('answers an OPTIONS with an empty Access-Control-Request-Method as no preflight: 405 with the Error body', async () => {
    const response = await api.request('OPTIONS', '/v1/pets', {
      headers: { ...AUTH, origin: 'https://app.example.com', 'access-control-request-method': '' },
    });
    expect(response.status).toBe(405);
    expect(response.body).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });

  it('gives another origin nothing', async () => {
    const response = await api.request('GET', '/v1/pets', { headers: { ...AUTH, origin: 'https://evil.example.com' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
