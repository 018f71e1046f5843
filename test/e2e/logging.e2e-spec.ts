import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { loadConfig } from '../../apps/api/src/config/config';
import { keyShapedUrls } from '../support/key-shaped-urls';
import { MAIN, freePort } from '../support/processes';
import { sleep } from '../support/load';
import { ServiceProcess, createServiceDatabase, serviceEnv, spawnInTerminal, startServiceProcess } from '../support/service-process';
import { AUTH, STARTUP_TIMEOUT_MS, TEST_API_KEY, TEST_KEY_ID } from '../support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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

describe('standard output refusing writes (a full disk: /dev/full)', () => {
  it(
    'keeps the service answering; stderr says once that lines are dropped',
    async () => {
      const database = await createServiceDatabase();
      const port = await freePort(); // stdout cannot tell the port the system chose
      const env = serviceEnv({ ...database.env, LOG_FORMAT: 'json', PORT: String(port) });
      const full = openSync('/dev/full', 'w');
      const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', full, 'pipe'] });
      closeSync(full);
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = once(child, 'exit');
      const alive = () => {
        if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}): ${stderr}`);
      };
      const list = () => fetch(`http://127.0.0.1:${port}/v1/pets?limit=1`, { headers: AUTH });
      try {
        // Until it listens, then past several of the log's 200 ms flushes: ENOSPC thrown from one killed it.
        while (!(await list().catch(() => undefined))) {
          alive();
          await sleep(100);
        }
        for (let i = 0; i < 5; i++, await sleep(150)) expect((await list()).status).toBe(200);
        alive();
        expect(stderr.match(/^standard output refuses log lines \(ENOSPC\): they are dropped while it does$/gm)).toHaveLength(1);
      } finally {
        child.kill('SIGTERM');
        await exited;
        await database.drop();
      }
    },
    STARTUP_TIMEOUT_MS,
  );
});

describe('readable log lines (LOG_FORMAT=pretty, or stdout a terminal)', () => {
  let database: Awaited<ReturnType<typeof createServiceDatabase>>;
  beforeAll(async () => {
    database = await createServiceDatabase();
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await database?.drop();
  });

  /** `12:04:05.120` then the level: pino-pretty's line, colours aside. */
  const PRETTY = /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] (INFO|WARN|ERROR|DEBUG): /;
  // eslint-disable-next-line no-control-regex -- colour codes start with ESC
  const ANSI = /\u001b\[[0-9;]*m/g;
  const isJson = (line: string) => {
    try {
      return typeof JSON.parse(line) === 'object';
    } catch {
      return false;
    }
  };

  /**
   * Starts the built service, inside a pseudo-terminal (util-linux `script`) when `terminal`, and
   * returns what it wrote up to its start banner's last line; then stops it.
   */
  async function startLines(env: Record<string, string>, terminal: boolean): Promise<string[]> {
    const fullEnv = { ...database.env, ...env };
    const child = terminal
      ? spawnInTerminal(fullEnv)
      : spawn(process.execPath, [MAIN], { env: serviceEnv(fullEnv), detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = once(child, 'exit');
    const lines: string[] = [];
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        lines.push(line.replace(/\r$/, ''));
        if (line.includes('Database: ')) resolve();
      });
      void exited.then(() => reject(new Error(`the service exited before its banner: ${lines.join('\n')}`)));
    });
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    return lines;
  }

  it(
    'LOG_FORMAT=pretty: time, level, context and message, one banner item a line, never JSON',
    async () => {
      const lines = await startLines({ LOG_FORMAT: 'pretty' }, false);
      expect(lines.filter(isJson)).toEqual([]);
      expect(lines.filter((line) => !PRETTY.test(line))).toEqual([]);
      expect(lines).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/\] INFO: \[Main\] Pet Store API listening on http:\/\/127\.0\.0\.1:\d+\/v1$/),
          expect.stringMatching(/\] INFO: \[Main\] Swagger UI: http:\/\/127\.0\.0\.1:\d+\/docs /),
          expect.stringMatching(/\] INFO: \[RouterExplorer\] Mapped \{\/health\/live, GET\} route$/),
        ]),
      );
      expect(lines.join('\n')).not.toContain('/v1/health');
      expect(lines.join('\n')).not.toMatch(ANSI); // no colours into a pipe
    },
    STARTUP_TIMEOUT_MS,
  );

  it(
    'is the default in a terminal, in colour; LOG_FORMAT=json there still gives JSON lines',
    async () => {
      const pretty = await startLines({}, true);
      expect(pretty.join('\n')).toMatch(ANSI);
      const plain = pretty.map((line) => line.replace(ANSI, ''));
      expect(plain.filter((line) => !PRETTY.test(line))).toEqual([]);
      expect(plain).toEqual(expect.arrayContaining([expect.stringMatching(/\[Main\] Pet Store API listening on http:\/\/127\.0\.0\.1:\d+\/v1$/)]));

      const json = await startLines({ LOG_FORMAT: 'json' }, true);
      expect(json.filter((line) => !isJson(line))).toEqual([]);
    },
    2 * STARTUP_TIMEOUT_MS,
  );
});
