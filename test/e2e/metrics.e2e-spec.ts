import { randomBytes } from 'node:crypto';
import { METRICS_TOKEN, SCRAPE, UNKNOWN_KEY, scriptedRequests } from '../support/metrics-requests';
import { parseExposition, seriesKey, valueOf, type Sample } from '../support/prometheus';
import { useTestApp } from '../support/test-app';
import { AUTH, TEST_API_KEY } from '../support/test-key';

// A real database on a shared 2-core machine: starting it may take a while under load.
jest.setTimeout(120_000);

/** The endpoint, its protection and its counts. /metrics turned off, and the limiter's count, are metrics-settings.e2e-spec.ts. */
describe('GET /metrics (e2e)', () => {
  const api = useTestApp({ METRICS_TOKEN, RATE_LIMIT_PER_MINUTE: '0' });
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
    fetch(api.baseUrl + path, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const scrape = async (): Promise<Sample[]> => {
    const response = await send('GET', '/metrics', SCRAPE);
    expect(response.status).toBe(200);
    return parseExposition(await response.text());
  };

  describe('protection', () => {
    it.each([
      ['no Authorization header', {}, 'Bearer'],
      ['an API key instead of the metrics token', AUTH, 'Bearer error="invalid_token"'],
      ['a wrong token', { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}x` }, 'Bearer error="invalid_token"'],
      ['another scheme', { authorization: `Basic ${METRICS_TOKEN}` }, 'Bearer'],
    ])('answers %s with 401 and the Error body', async (_case, headers, challenge) => {
      const response = await send('GET', '/metrics', headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('www-authenticate')).toBe(challenge);
      const body = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['code', 'message', 'status']);
      expect(body).toMatchObject({ code: 'unauthorized', status: 401 });
    });

    it('answers the right token with the text format 0.0.4, uncached, outside /v1', async () => {
      const response = await send('GET', '/metrics', SCRAPE);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const text = await response.text();
      expect(text).toContain('# TYPE petstore_http_requests_total counter');
      expect(text).toContain('# TYPE petstore_http_request_duration_seconds histogram');
      expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
      expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
      expect(() => parseExposition(text)).not.toThrow();
      expect((await send('GET', '/v1/metrics', SCRAPE)).status).toBe(404);
      // Left out of the OpenAPI document on purpose: the operator's endpoint, not the API's.
      const document = (await (await send('GET', '/docs/openapi.json')).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(document.paths).filter((path) => path.includes('metrics'))).toEqual([]);
    });
  });

  it('holds exact counts after a scripted set of requests', async () => {
    const before = await scrape();
    const created = await send('POST', '/v1/pets', AUTH, { name: 'Rex', categoryId: 1 });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const script = scriptedRequests(id);
    for (const [method, path, headers, body, status] of script)
      expect([method, path, (await send(method, path, headers, body)).status]).toEqual([method, path, status]);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => (valueOf(after, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);
    const requests = (method: string, route: string, status: string) => delta('petstore_http_requests_total', { method, route, status });

    expect({
      list200: requests('GET', '/v1/pets', '200'),
      get200: requests('GET', '/v1/pets/{petId}', '200'),
      get404: requests('GET', '/v1/pets/{petId}', '404'),
      get400: requests('GET', '/v1/pets/{petId}', '400'),
      list401: requests('GET', '/v1/pets', '401'),
      get401: requests('GET', '/v1/pets/{petId}', '401'),
      create201: requests('POST', '/v1/pets', '201'),
      create422: requests('POST', '/v1/pets', '422'),
      unmatched404: requests('GET', 'unmatched', '404'),
      unmatched405: requests('DELETE', 'unmatched', '405'),
      orders501: requests('GET', '/v1/store/orders', '501'),
      // Scrapes count too: `before` was answered before it was counted, so one (this `after`) is not in it.
      metrics200: requests('GET', '/metrics', '200'),
    }).toEqual({
      list200: 3,
      get200: 1,
      get404: 2,
      get400: 1,
      list401: 3,
      get401: 1,
      create201: 3,
      create422: 1,
      unmatched404: 2,
      unmatched405: 1,
      orders501: 1,
      metrics200: 1,
    });
    // The histogram counts the same requests as the counter.
    expect(delta('petstore_http_request_duration_seconds_count', { method: 'GET', route: '/v1/pets', status: '200' })).toBe(3);
    expect(delta('petstore_http_request_duration_seconds_bucket', { method: 'GET', route: '/v1/pets', status: '200', le: '+Inf' })).toBe(3);
    expect({
      missing: delta('petstore_auth_refusals_total', { reason: 'missing' }),
      invalid: delta('petstore_auth_refusals_total', { reason: 'invalid' }),
      cacheMiss: delta('petstore_api_key_cache_lookups_total', { result: 'miss' }),
      cacheHit: delta('petstore_api_key_cache_lookups_total', { result: 'hit' }),
      replayed: delta('petstore_idempotency_total', { outcome: 'replayed' }),
      keyReused: delta('petstore_idempotency_total', { outcome: 'key_reused' }),
      listStatements: delta('petstore_db_statement_duration_seconds_count', { statement: 'pets_list', outcome: 'ok' }),
      getStatements: delta('petstore_db_statement_duration_seconds_count', { statement: 'pets_get', outcome: 'ok' }),
      insertStatements: delta('petstore_db_statement_duration_seconds_count', { statement: 'pets_insert', outcome: 'ok' }),
      // A keyed create stores the pet and its answer in one transaction; a key already taken refuses it (a conflict,
      // not a database error), then is read.
      recordedInserts: delta('petstore_db_statement_duration_seconds_count', { statement: 'pets_insert_recorded', outcome: 'ok' }),
      keyTaken: delta('petstore_db_statement_duration_seconds_count', { statement: 'pets_insert_recorded', outcome: 'conflict' }),
      insertErrors: delta('petstore_db_statement_duration_seconds_count', { statement: 'pets_insert_recorded', outcome: 'error' }),
      recordReads: delta('petstore_db_statement_duration_seconds_count', { statement: 'idempotency_read', outcome: 'ok' }),
    }).toEqual({
      missing: 2,
      invalid: 2,
      cacheMiss: 1,
      cacheHit: 1,
      replayed: 1,
      keyReused: 1,
      listStatements: 3,
      getStatements: 3,
      insertStatements: 1,
      recordedInserts: 1,
      keyTaken: 2,
      insertErrors: 0,
      recordReads: 2,
    });
    expect(valueOf(after, 'petstore_db_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'petstore_db_pool_waiting_requests')).toBe(0);
    // No label anywhere carries what a client sent: no key, no id, no query value.
    const routes = new Set(after.filter((sample) => sample.labels.route !== undefined).map((sample) => sample.labels.route));
    expect([...routes].sort()).toEqual(['/docs/openapi.json', '/metrics', '/v1/pets', '/v1/pets/{petId}', '/v1/store/orders', 'unmatched']);
    const values = after.flatMap((sample) => Object.values(sample.labels));
    for (const secret of [TEST_API_KEY, UNKNOWN_KEY, 'metrics-1', 'nowhere', 'access_token', 'extra'])
      expect(values.filter((value) => value.includes(secret))).toEqual([]);
  });

  it('adds no series for 1,000 random paths, methods and query strings', async () => {
    let seed = 20261123;
    const random = (n: number) => {
      seed = (seed * 1664525 + 1013904223) >>> 0;
      return seed % n;
    };
    const words = new Set<string>();
    const word = () => {
      const value = randomBytes(1 + random(12)).toString('hex');
      // Eight hex digits or more cannot turn up in a label by chance (a bucket bound, a status).
      if (value.length >= 8) words.add(value);
      return value;
    };
    const shapes: (() => [string, string, Record<string, string>])[] = [
      () => ['GET', `/${word()}/${word()}`, AUTH],
      () => ['GET', `/v1/${word()}?${word()}=${word()}`, AUTH],
      () => ['GET', `/v1/pets/${word()}x`, AUTH],
      () => ['GET', `/v1/pets/${word()}x?${word()}=${word()}`, {}],
      () => ['POST', `/${word()}`, AUTH],
      () => ['PROPFIND', `/v1/pets/${word()}`, AUTH],
    ];
    // Each shape once first, so every series it can touch exists before the count starts.
    for (const shape of shapes) {
      const [method, path, headers] = shape();
      await send(method, path, headers);
    }
    const before = new Set((await scrape()).map(seriesKey));
    let sent = 0;
    for (let start = 0; start < 1000; start += 25) {
      await Promise.all(
        Array.from({ length: 25 }, async () => {
          const [method, path, headers] = shapes[random(shapes.length)]();
          await (await send(method, path, headers)).arrayBuffer();
          sent++;
        }),
      );
    }
    expect(sent).toBe(1000);
    const after = await scrape();
    // The service's series are fixed by its code. prom-client's runtime series may grow on their own
    // (a first timer adds nodejs_active_resources{type="Timeout"}), so they are only
    // checked for client words below.
    const ours = (key: string) => key.startsWith('petstore_');
    expect(after.map(seriesKey).filter((key) => ours(key) && !before.has(key))).toEqual([]);
    expect(words.size).toBeGreaterThan(100);
    const labels = after.flatMap((sample) => Object.values(sample.labels));
    expect(labels.filter((value) => [...words].some((w) => value.includes(w)))).toEqual([]);
    expect(after.filter((sample) => sample.name === 'petstore_http_requests_total').length).toBe(
      [...before].filter((key) => key.startsWith('petstore_http_requests_total{')).length,
    );
  });
});
