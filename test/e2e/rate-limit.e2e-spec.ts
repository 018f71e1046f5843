import { createHash, randomBytes } from 'node:crypto';
import { parseExposition, valueOf } from '../support/prometheus';
import { sleep } from '../support/load';
import { TcpProxy } from '../support/tcp-proxy';
import { TestApp, startTestApp, useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Keys of this run alone, in the issued keys' format: Redis counters are named by the key's id and outlive a run, which another run may share. */
const runKey = () => `pet_${randomBytes(32).toString('base64url')}`;

describe.each([
  ['in memory', {}],
  ['in Redis', { REDIS_URL }],
])('rate limiting per API key, counters %s (e2e)', (_storage, env: Record<string, string>) => {
  const key = runKey();
  const auth = { authorization: `Bearer ${key}` };
  const api = useTestApp({ ...env, API_KEYS: key, RATE_LIMIT_PER_MINUTE: '5' });

  it('announces the quota on every authenticated answer, errors included, then answers 429 with Retry-After', async () => {
    const answers = [
      await api.request('GET', '/v1/pets', { headers: auth }),
      await api.request('POST', '/v1/pets', { headers: auth, body: { name: '' } }),
      await api.request('GET', '/v1/pets/0', { headers: auth }),
      await api.request('GET', '/v1/store/orders', { headers: auth }),
      await api.request('GET', '/v1/pets?limit=1', { headers: auth }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 400, 400, 501, 200]);
    answers.forEach((answer, index) => {
      expect(answer.headers.get('ratelimit-policy')).toBe('"default";q=5;w=60');
      expect(answer.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${4 - index};t=([1-9]|[1-5][0-9]|60)$`));
    });

    const refused = await api.request('GET', '/v1/pets', { headers: auth });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 'rate_limited',
      message: expect.stringMatching(/^Too many requests: retry after \d+ seconds$/),
      status: 429,
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit')).toBe(`"default";r=0;t=${retryAfter}`);
    expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=5;w=60');
    // A write over the quota stores nothing.
    const write = await api.request('POST', '/v1/pets', { headers: auth, body: { name: 'Late', categoryId: 1 } });
    expect(write.status).toBe(429);
    expect(Number((await api.sql.query('SELECT count(*) FROM pets')).rows[0].count)).toBe(0);
  });

  it('counts and announces a 403 (a key without the scope) like any other answer', async () => {
    const readOnly = runKey();
    // An id of this run's own (its counter's name), not the table's first.
    await api.sql.query(`INSERT INTO api_keys (id, label, key_hash, scopes) OVERRIDING SYSTEM VALUE VALUES ($1, 'read only', $2, '{pets:read}')`, [
      randomBytes(6).readUIntBE(0, 6),
      createHash('sha256').update(readOnly).digest('hex'),
    ]);
    const headers = { authorization: `Bearer ${readOnly}` };
    const forbidden = await api.request('POST', '/v1/pets', { headers, body: { name: 'Rex', categoryId: 1 } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('ratelimit-policy')).toBe('"default";q=5;w=60');
    expect(forbidden.headers.get('ratelimit')).toMatch(/^"default";r=4;t=\d+$/);
    expect((await api.request('GET', '/v1/pets', { headers })).headers.get('ratelimit')).toMatch(/^"default";r=3;t=\d+$/);
  });

  it('does not count or announce for unauthenticated requests and public routes', async () => {
    const unauthenticated = await api.request('GET', '/v1/pets');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('ratelimit')).toBeNull();
    const health = await api.request('GET', '/health/live');
    expect(health.status).toBe(200);
    expect(health.headers.get('ratelimit')).toBeNull();
  });
});

describe('rate limiting off (RATE_LIMIT_PER_MINUTE=0) (e2e)', () => {
  const api = useTestApp({ RATE_LIMIT_PER_MINUTE: '0' });

  it('never refuses and sends no RateLimit fields', async () => {
    for (let i = 0; i < 8; i++) {
      const response = await api.request('GET', '/v1/pets', { headers: AUTH });
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit')).toBeNull();
    }
  });
});

// The app's Redis is reached through a proxy of the test's own: the shared Redis is never disturbed.
const describeOneInstance = process.env.PETSTORE_TOPOLOGY === 'cluster' ? describe.skip : describe;

describeOneInstance('a quota raised while a key is over the old one, counters in Redis (e2e)', () => {
  it("answers by the quota in force: the window's hits counted, no 429 while requests are left", async () => {
    const key = runKey();
    const auth = { authorization: `Bearer ${key}` };
    const statusesUnder = async (limit: string, count: number) => {
      const api = await startTestApp({ REDIS_URL, API_KEYS: key, RATE_LIMIT_PER_MINUTE: limit });
      try {
        const answers = [];
        for (let i = 0; i < count; i++) answers.push(await api.request('GET', '/v1/pets', { headers: auth }));
        return answers.map((answer) => [answer.status, answer.headers.get('ratelimit')?.replace(/;t=\d+$/, '')]);
      } finally {
        await api.close();
      }
    };
    expect(await statusesUnder('2', 3)).toEqual([
      [200, '"default";r=1'],
      [200, '"default";r=0'],
      [429, '"default";r=0'],
    ]);
    // Restarted with a higher quota (a rollout): the 3 hits count against it.
    expect(await statusesUnder('100', 1)).toEqual([[200, '"default";r=96']]);
  });
});

describeOneInstance('a slow Redis (e2e)', () => {
  let proxy: TcpProxy;
  let api: TestApp;
  beforeAll(async () => {
    const { hostname, port } = new URL(REDIS_URL);
    proxy = await TcpProxy.start({ host: hostname, port: Number(port || 6379) });
    api = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000', REDIS_URL: `redis://127.0.0.1:${proxy.port}` });
  }, 60000);
  afterAll(async () => {
    await api?.close();
    await proxy?.close();
  });

  const checks = async () => {
    const samples = parseExposition(await (await fetch(`${api.baseUrl}/metrics`)).text());
    return Object.fromEntries(
      ['ok', 'failed', 'skipped'].map((outcome) => [outcome, valueOf(samples, 'petstore_redis_checks_total', { outcome }) ?? 0]),
    );
  };

  it('stops asking a Redis that does not answer after 3 failures, fails open, counts it, and asks again later', async () => {
    let ready = false;
    for (let attempt = 0; attempt < 50 && !ready; attempt++) {
      ready = (await api.request('GET', '/v1/pets', { headers: AUTH })).headers.get('ratelimit') !== null;
      if (!ready) await sleep(100);
    }
    expect(ready).toBe(true);
    const before = await checks();
    proxy.set('blackhole'); // Redis answers nothing: every command waits for the 500 ms timeout
    for (let i = 0; i < 20; i++) expect((await api.request('GET', '/v1/pets', { headers: AUTH })).status).toBe(200);
    const during = await checks();
    expect({ failed: during.failed - before.failed, skipped: during.skipped - before.skipped }).toEqual({ failed: 3, skipped: 17 });

    // Redis back, the frozen connection left as it is (packets to a replaced Redis go nowhere): after the
    // circuit's 5 s a check tries again, on a new connection, and the limit is enforced again.
    proxy.set('up');
    let enforced = false;
    for (let attempt = 0; attempt < 100 && !enforced; attempt++) {
      enforced = (await api.request('GET', '/v1/pets', { headers: AUTH })).headers.get('ratelimit') !== null;
      if (!enforced) await sleep(100);
    }
    expect(enforced).toBe(true);
  });
});
