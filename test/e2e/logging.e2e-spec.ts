import { loadConfig } from '../../apps/api/src/config/config';
import { keyShapedUrls } from '../support/key-shaped-urls';
import { sleep } from '../support/load';
import { ServiceProcess, createServiceDatabase, startServiceProcess } from '../support/service-process';
import { AUTH, TEST_API_KEY, TEST_KEY_ID } from '../support/test-key';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The request log and its ids. Where the lines go (a refusing stdout, a terminal, LOG_FORMAT) is logging-stdout.e2e-spec.ts. */
describe('request ids and JSON logs (built service)', () => {
  let database: Awaited<ReturnType<typeof createServiceDatabase>>;
  let service: ServiceProcess;

  beforeAll(async () => {
    database = await createServiceDatabase();
    // Redis on a port where nothing listens: the limiter fails open and logs a warning inside each request.
    service = await startServiceProcess({ ...database.env, LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '100', REDIS_URL: 'redis://127.0.0.1:1' });
  }, 60000);
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
  });

  const send = (path: string, headers: Record<string, string>) => fetch(service.baseUrl + path, { headers });
  /** The request log lines written for one request id (they appear once the answer is complete). */
  async function linesOf(requestId: string): Promise<Array<Record<string, any>>> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const lines = service.lines.filter((line) => line.includes(requestId)).map((line) => JSON.parse(line));
      if (lines.some((line) => line.res)) return lines;
      await sleep(50);
    }
    throw new Error(`no request log line for ${requestId}`);
  }

  it('keeps a valid X-Request-Id, echoes it and logs one JSON line with id, method, route, status, duration and key id', async () => {
    const response = await send('/v1/pets?limit=2', { ...AUTH, 'x-request-id': 'trace-1.A_b' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('trace-1.A_b');
    const [line] = (await linesOf('trace-1.A_b')).filter((l) => l.res);
    expect(line).toMatchObject({
      level: 30,
      requestId: 'trace-1.A_b',
      req: { method: 'GET', url: '/v1/pets?limit=2' },
      route: '/v1/pets',
      res: { statusCode: 200 },
      keyId: TEST_KEY_ID,
    });
    expect(typeof line.durationMs).toBe('number');
  });

  it('carries the request id on application lines logged during the request; a Redis outage is one line, not one a request', async () => {
    for (let i = 0; i < 30; i++) expect((await send('/v1/pets', { ...AUTH, 'x-request-id': `app-line-${i}` })).status).toBe(200);
    await linesOf('app-line-29');
    const outage = service.lines.map((line) => JSON.parse(line)).filter((line) => line.context === 'RateLimit');
    expect(outage).toEqual([
      expect.objectContaining({ level: 40, requestId: expect.any(String), msg: expect.stringMatching(/^rate limit not checked, Redis failed/) }),
    ]);
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['with a space', 'bad id'],
    ['with a slash', 'a/b'],
  ])('replaces an X-Request-Id %s by a generated one, echoed on an error answer too', async (_case, incoming) => {
    const response = await send('/v1/pets', { 'x-request-id': incoming });
    expect(response.status).toBe(401);
    const id = response.headers.get('x-request-id')!;
    expect(id).toMatch(UUID);
    const [line] = (await linesOf(id)).filter((l) => l.res);
    expect(line).toMatchObject({ requestId: id, res: { statusCode: 401 } });
    expect(line.keyId).toBeUndefined();
  });

  it('echoes the id on unknown routes and router errors', async () => {
    const notFound = await send('/nowhere', { ...AUTH, 'x-request-id': 'nf-1' });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('x-request-id')).toBe('nf-1');
    const badUrl = await send('/v1/pets/%E0%A4%A', { ...AUTH, 'x-request-id': 'bad-url-1' });
    expect(badUrl.status).toBe(400);
    expect(badUrl.headers.get('x-request-id')).toBe('bad-url-1');
  });

  it('never logs the API key or the Authorization header', async () => {
    await send('/v1/pets', { ...AUTH, 'x-request-id': 'secret-check' });
    await send('/v1/pets', { authorization: 'Bearer pet_not-a-real-key-but-secret-0123456789', 'x-request-id': 'secret-check-2' });
    await linesOf('secret-check-2');
    const all = service.lines.join('\n');
    expect(all).not.toContain(TEST_API_KEY);
    expect(all).not.toContain('pet_not-a-real-key');
    expect(all.toLowerCase()).not.toContain('bearer ');
    expect(all.toLowerCase()).not.toContain('"authorization"');
    for (const line of service.lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('never logs a key sent in the query string, and keeps a 15 KB URL to a short line', async () => {
    const key = 'pet_queryStringKey0123456789abcdefghijklmnopqrs';
    const inQuery = await send(`/v1/pets?limit=1&access_token=${key}`, { 'x-request-id': 'query-key-1' });
    expect(inQuery.status).toBe(401);
    const [line] = (await linesOf('query-key-1')).filter((l) => l.res);
    expect(line.req).toEqual({ method: 'GET', url: '/v1/pets?limit=1&access_token=…' });
    const long = await send(`/v1/pets?limit=1&junk=${'x'.repeat(15 * 1024)}`, { ...AUTH, 'x-request-id': 'long-url-1' });
    expect(long.status).toBe(200);
    await linesOf('long-url-1');
    expect(service.lines.join('\n')).not.toContain('queryStringKey');
    for (const logged of service.lines.filter((l) => l.includes('long-url-1'))) expect(logged.length).toBeLessThan(1000);
  });

  it('never logs anything shaped like a key, wherever in the URL a client put it', async () => {
    const key = 'pet_Lg7xW9vK2mN8pL4rT6yU1iO0aS5dF7gH9jK3lZ8xC2v';
    const urls = keyShapedUrls(key);
    for (const [i, url] of urls.entries()) {
      await send(url, { ...AUTH, 'x-request-id': `key-shaped-${i}` });
      await linesOf(`key-shaped-${i}`);
    }
    expect(service.lines.filter((line) => line.includes('Lg7xW9vK2mN8pL4rT6yU1iO0a'))).toEqual([]);
  });

  it('refuses an unknown LOG_LEVEL at start, naming the variable', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
  });

  it('writes JSON lines when stdout is not a terminal: the start banner a line per item, the routes as served', () => {
    const lines = service.lines.map((line) => JSON.parse(line) as Record<string, any>);
    const messages = lines.map((line) => line.msg as string);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Pet Store API listening on http:\/\/127\.0\.0\.1:\d+\/v1$/),
        expect.stringMatching(/^Swagger UI: http:\/\/127\.0\.0\.1:\d+\/docs \(OpenAPI document: http:\/\/127\.0\.0\.1:\d+\/docs\/openapi\.json\)$/),
        expect.stringMatching(/^Database: /),
        'Mapped {/v1/pets, GET} route',
        'Mapped {/health/live, GET} route',
        'Mapped {/health/ready, GET} route',
      ]),
    );
    expect(messages.filter((message) => message.includes('\n'))).toEqual([]);
    // Nest's heading "HealthController {/v1/health}" named a path that does not exist.
    expect(messages.filter((message) => message.includes('/v1/health'))).toEqual([]);
  });
});
