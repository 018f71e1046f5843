import { connect } from 'node:net';
import { once } from 'node:events';
import { PET_ID_MAX } from '@petstore/contracts';
import { ContractChecker, OpenApiDocument } from '../support/contract';
import { expectError, expectValidationFailed } from '../support/expectations';
import { parseExposition, valueOf } from '../support/prometheus';
import { parseAnswer, sendRaw } from '../support/raw-http';
import { ServiceProcess, createServiceDatabase, startServiceProcess } from '../support/service-process';
import { STARTUP_TIMEOUT_MS, countPets, useTestApp } from '../support/test-app';
import { AUTH, TEST_API_KEY } from '../support/test-key';

const PET_ID_RULE: [string, string] = ['petId', `petId must be an integer from 1 to ${PET_ID_MAX}`];

/** Every answer is the Error body with a request id, whatever refused the request. */
describe('answers at the edge (e2e)', () => {
  const api = useTestApp({ CORS_ORIGINS: 'https://app.example.com' });

  it.each([2049, 10_000])('answers a %i-digit petId 400 naming petId', async (digits) => {
    const response = await api.request('GET', `/v1/pets/${'9'.repeat(digits)}`, { headers: AUTH });
    expectValidationFailed(response, PET_ID_RULE);
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers a request without Host 400 with the Error body and a request id', async () => {
    // Connection: close, so that the answer ends the exchange (sendRaw waits for the close).
    const { answer } = await sendRaw(api.baseUrl, 'GET /health/live HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(answer?.status).toBe(400);
    expect(answer?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer?.body).toEqual({ code: 'malformed_request', message: 'The request has no Host header', status: 400 });
    expect(answer?.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ['Host', `Host: a.example\r\nHost: b.example\r\nAuthorization: Bearer ${TEST_API_KEY}`],
    // Node keeps the first and drops the others silently: a valid key first let the request through.
    ['Authorization', `Host: a.example\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nauthorization: Bearer not-a-key`],
  ])('answers a request with more than one %s header 400 with the Error body', async (name, headers) => {
    const { answer } = await sendRaw(api.baseUrl, `GET /v1/pets?limit=1 HTTP/1.1\r\n${headers}\r\nConnection: close\r\n\r\n`);
    expect(answer?.status).toBe(400);
    expect(answer?.body).toEqual({ code: 'malformed_request', message: `The request has more than one ${name} header`, status: 400 });
    expect(answer?.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each(['gzip, chunked', 'chunked, chunked', 'identity'])('answers a body in Transfer-Encoding: %s 400, creating nothing', async (coding) => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: application/json\r\n`;
    const body = '{"name":"Rex","categoryId":1}';
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const { answer } = await sendRaw(api.baseUrl, `${head}Transfer-Encoding: ${coding}\r\nConnection: close\r\n\r\n${chunked}`);
    expect({ status: answer?.status, code: (answer?.body as { code?: string })?.code }).toEqual({ status: 400, code: 'malformed_request' });
    expect(await countPets(api)).toBe(0);
  });

  it.each([
    ['with a key: served', `Authorization: Bearer ${TEST_API_KEY}\r\n`, 200, undefined],
    ['without one: 401 with the Error body', '', 401, 'unauthorized'],
  ])('serves a request with an unknown Expect (Node answered a bare 417), %s', async (_case, auth, status, code) => {
    const { answer } = await sendRaw(api.baseUrl, `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: a\r\n${auth}Expect: foo\r\nConnection: close\r\n\r\n`);
    expect({ status: answer?.status, type: answer?.headers['content-type'], code: (answer?.body as { code?: string })?.code }).toEqual({
      status,
      type: 'application/json; charset=utf-8',
      code,
    });
    expect(answer?.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an OPTIONS that is no preflight 405 with the Error body, CORS on', async () => {
    const response = await api.request('OPTIONS', '/v1/pets', { headers: AUTH });
    expectError(response, 405, 'method_not_allowed', 'OPTIONS is not allowed on /v1/pets; allowed: GET, HEAD, POST');
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers an unknown path 404, CORS on (the preflight route is no path of the API)', async () => {
    expectError(await api.request('GET', '/nowhere', { headers: AUTH }), 404, 'not_found', 'No route matches GET /nowhere');
  });

  it.each(['package.json', 'swagger-ui-bundle.js.map', 'swagger-ui.js', 'index.css', 'oauth2-redirect.html', 'LICENSE'])(
    'serves of swagger-ui-dist only what the page loads: /docs/%s is 404, as any unknown path',
    async (file) => {
      expectError(await api.request('GET', `/docs/${file}`, { contract: false }), 404, 'not_found', `No route matches GET /docs/${file}`);
    },
  );

  it.each(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png', 'favicon-16x16.png'])(
    'serves /docs/%s',
    async (file) => {
      expect((await api.request('GET', `/docs/${file}`, { contract: false })).status).toBe(200);
    },
  );
});

describe('router errors are logged and counted (e2e)', () => {
  let service: ServiceProcess;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createServiceDatabase();
    drop = database.drop;
    service = await startServiceProcess({ ...database.env, LOG_LEVEL: 'info' });
  }, STARTUP_TIMEOUT_MS);

  afterAll(async () => {
    await service?.stop();
    await drop?.();
  }, STARTUP_TIMEOUT_MS);

  /** The request line of `requestId`, once the service wrote it. */
  async function requestLine(requestId: string): Promise<Record<string, any> | undefined> {
    let line: Record<string, any> | undefined;
    for (let i = 0; i < 50 && !line; i++) {
      line = service.lines
        .filter((text) => text.startsWith('{'))
        .map((text) => JSON.parse(text) as Record<string, any>)
        .find((entry) => entry.requestId === requestId && entry.res);
      if (!line) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return line;
  }

  it('writes the request line and counts the answer of a path the router refuses', async () => {
    const response = await fetch(`${service.baseUrl}/v1/pets/%`, { headers: { 'x-request-id': 'router-error-1' } });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-request-id')).toBe('router-error-1');
    expect(await requestLine('router-error-1')).toMatchObject({ req: { method: 'GET', url: '/v1/pets/%' }, res: { statusCode: 400 } });
    const samples = parseExposition(await (await fetch(`${service.baseUrl}/metrics`)).text());
    expect(valueOf(samples, 'petstore_http_requests_total', { method: 'GET', route: 'unmatched', status: '400' })).toBe(1);
  });

  it("writes the request line and counts the answer of a request Node's parser refuses", async () => {
    const { answer } = await sendRaw(service.baseUrl, 'FOO /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer?.status).toBe(400);
    expect(await requestLine(answer!.headers['x-request-id'])).toMatchObject({ res: { statusCode: 400 } });
    const samples = parseExposition(await (await fetch(`${service.baseUrl}/metrics`)).text());
    expect(valueOf(samples, 'petstore_http_requests_total', { method: 'other', route: 'unmatched', status: '400' })).toBe(1);
  });

  it('logs no error of the service when a client closes the connection mid-body', async () => {
    const { hostname, port } = new URL(service.baseUrl);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined).resume(); // its answer (400, the body cut short) read and dropped
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100`;
    socket.end(`${head}\r\n\r\n{"name":`);
    await once(socket, 'close');
    // A later request's line: by then the service has written all it will about the first.
    await fetch(`${service.baseUrl}/health/live`, { headers: { 'x-request-id': 'after-abort' } });
    expect(await requestLine('after-abort')).toBeDefined();
    const errors = service.lines.filter((text) => text.startsWith('{') && (JSON.parse(text) as { level: number }).level >= 50);
    expect(errors).toEqual([]);
  });

  it('answers CONNECT 405 with the Error body and writes its request line (Node drops it unanswered by default)', async () => {
    const { hostname, port } = new URL(service.baseUrl);
    const socket = connect(Number(port), hostname);
    let raw = '';
    socket.on('data', (data) => (raw += data.toString('latin1')));
    const closed = once(socket, 'close');
    socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nX-Request-Id: connect-1\r\n\r\n');
    await closed;
    const answer = parseAnswer(raw)!;
    expect(answer).toMatchObject({
      status: 405,
      // An empty Allow: no method opens a tunnel here (RFC 9110, 10.2.1).
      headers: { allow: '', 'x-request-id': 'connect-1', 'content-type': 'application/json; charset=utf-8', connection: 'close' },
      body: { code: 'method_not_allowed', message: 'CONNECT is not allowed: this server is not a proxy', status: 405 },
    });
    const document = (await (await fetch(`${service.baseUrl}/docs/openapi.json`)).json()) as OpenApiDocument;
    const contentType = answer.headers['content-type'];
    expect(new ContractChecker(document).problem('CONNECT', '/', answer.status, contentType, answer.body, answer.text)).toBeUndefined();
    expect(await requestLine('connect-1')).toMatchObject({ req: { method: 'CONNECT', url: 'example.com:443' }, res: { statusCode: 405 } });
  });
});
