import { API_VERSION } from '@petstore/contracts';
import { STARTUP_TIMEOUT_MS, useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';
import { JSON_CONTENT_TYPE, expectError } from '../support/expectations';
import { sendRaw } from '../support/raw-http';

const PUBLIC_BASE_URL = 'https://api.petstore.test/v1';
const STAGING_BASE_URL = 'https://staging.petstore.test/v1';

describe('the API documents, served without a key (e2e)', () => {
  const api = useTestApp({ PUBLIC_BASE_URL, STAGING_BASE_URL });
  let document: any; // the parsed OpenAPI document

  beforeAll(async () => {
    document = (await api.request('GET', '/docs/openapi.json')).body;
  }, STARTUP_TIMEOUT_MS);

  it('serves the OpenAPI 3 document as JSON at /docs/openapi.json', async () => {
    const response = await api.request('GET', '/docs/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_CONTENT_TYPE);
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info).toMatchObject({ title: 'Pet Store API', version: API_VERSION });
  });

  it('tells a reader of Swagger UI how to get a key', () => {
    expect(document.info.description).toContain('a development start with no key anywhere creates one and prints it once on the console');
    expect(document.info.description).toContain('`pnpm -s keys create --name <label>`');
  });

  it('serves the same document as YAML at /docs/openapi.yaml', async () => {
    const response = await api.request('GET', '/docs/openapi.yaml');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/yaml/);
    expect(response.text).toMatch(/^openapi: 3\./);
    expect(response.text).toContain(`version: ${API_VERSION}`);
    expect(response.text).toContain(`url: ${PUBLIC_BASE_URL}`);
  });

  it('serves Swagger UI at /docs', async () => {
    const response = await api.request('GET', '/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.text).toContain('<title>Pet Store API</title>');
    expect((await api.request('GET', '/docs/swagger-ui-bundle.js')).status).toBe(200);
  });

  it('lists this instance first, then production and staging from the configuration', () => {
    expect(document.servers.map((s: { url: string }) => s.url)).toEqual(['/v1', PUBLIC_BASE_URL, STAGING_BASE_URL]);
  });

  it('has paths relative to the /v1 servers, with the decided operationIds, and the health checks outside /v1', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { operationId: string }>)
        .filter(([method]) => method !== 'servers')
        .map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual([
      'GET /health/live live',
      'GET /health/ready ready',
      'GET /pets listPets',
      'GET /pets/{petId} getPet',
      'GET /store/orders listOrders',
      'POST /pets createPet',
    ]);
    for (const path of ['/health/live', '/health/ready']) {
      expect(document.paths[path].servers).toEqual([{ url: '/', description: 'This instance (outside /v1)' }]);
    }
  });

  it('marks getPet deprecated and listOrders experimental', () => {
    expect(document.paths['/pets/{petId}'].get.deprecated).toBe(true);
    expect(document.paths['/store/orders'].get['x-stability']).toBe('experimental');
    expect(document.paths['/pets'].get.deprecated).toBeUndefined();
  });

  it('documents the limit bounds and default, and the status default', () => {
    const limit = document.paths['/pets'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20, example: 20 });
    expect(document.components.schemas.NewPet.properties.status.default).toBe('available');
    expect(document.components.schemas.NewPet.additionalProperties).toBe(false);
  });

  describe('caching and compression', () => {
    it.each(['/docs', '/docs/swagger-ui-init.js', '/docs/openapi.json', '/docs/openapi.yaml'])(
      '%s: a weak ETag of the body, Cache-Control no-cache, and 304 without a body on If-None-Match',
      async (path) => {
        const first = await api.request('GET', path);
        const etag = first.headers.get('etag');
        expect({ status: first.status, etag, cacheControl: first.headers.get('cache-control') }).toEqual({
          status: 200,
          etag: expect.stringMatching(/^W\/"[\w-]+"$/),
          cacheControl: 'no-cache',
        });
        const again = await api.request('GET', path, { headers: { 'if-none-match': `W/"other", ${etag}` } });
        expect({ status: again.status, etag: again.headers.get('etag'), length: again.headers.get('content-length'), text: again.text }).toEqual({
          status: 304,
          etag,
          length: null,
          text: '',
        });
        const head = await api.request('HEAD', path, { headers: { 'if-none-match': etag! } });
        expect({ status: head.status, etag: head.headers.get('etag') }).toEqual({ status: 304, etag });
        expect((await api.request('GET', path, { headers: { 'if-none-match': 'W/"other"' } })).status).toBe(200);
        // If-None-Match compares weakly (RFC 9110 §13.1.2): the strong form of the tag matches, and so does `*`.
        for (const tag of [etag!.slice(2), '*']) expect((await api.request('GET', path, { headers: { 'if-none-match': tag } })).status).toBe(304);
      },
    );

    it("the UI files: @fastify/static's ETag and Last-Modified, revalidated on each use (their URL carries no version), 304 when unchanged", async () => {
      const first = await api.request('GET', '/docs/swagger-ui-bundle.js');
      const etag = first.headers.get('etag')!;
      const lastModified = first.headers.get('last-modified')!;
      expect({ status: first.status, cacheControl: first.headers.get('cache-control'), etag, lastModified }).toEqual({
        status: 200,
        cacheControl: 'public, max-age=0',
        etag: expect.stringMatching(/^W\/"/),
        lastModified: expect.stringMatching(/ GMT$/),
      });
      // As a browser revalidates: fetch would add `Cache-Control: no-cache`, which @fastify/static takes as a reload.
      for (const condition of [{ 'if-none-match': etag }, { 'if-modified-since': lastModified }] as Record<string, string>[]) {
        const again = await api.request('GET', '/docs/swagger-ui-bundle.js', { headers: { ...condition, 'cache-control': 'max-age=0' } });
        expect([again.status, again.text]).toEqual([304, '']);
      }
    });

    it.each([
      ['br', '/docs/swagger-ui-bundle.js'],
      ['gzip', '/docs/swagger-ui.css'],
      ['br', '/docs'],
      ['gzip', '/docs/swagger-ui-init.js'],
      ['br', '/docs/openapi.json'],
    ])('sends %s to a client that accepts it: %s', async (encoding, path) => {
      const plain = await api.request('GET', path, { headers: { 'accept-encoding': 'identity' } });
      const compressed = await api.request('GET', path, { headers: { 'accept-encoding': encoding } });
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect({ encoding: compressed.headers.get('content-encoding'), vary: compressed.headers.get('vary') }).toEqual({
        encoding,
        vary: 'accept-encoding',
      });
      expect(compressed.text).toBe(plain.text); // fetch decodes it
    });

    it("leaves the API's answers and the metrics uncompressed", async () => {
      for (let i = 0; i < 20; i++)
        expect((await api.request('POST', '/v1/pets', { headers: AUTH, body: { name: `Pet ${i}`, categoryId: 1 } })).status).toBe(201);
      const list = await api.request('GET', '/v1/pets', { headers: { ...AUTH, 'accept-encoding': 'br, gzip' } });
      expect(list.text.length).toBeGreaterThan(1024); // above @fastify/compress's threshold
      const metrics = await api.request('GET', '/metrics', { headers: { 'accept-encoding': 'br, gzip' }, contract: false });
      expect(metrics.text.length).toBeGreaterThan(1024);
      expect([list.status, list.headers.get('content-encoding'), metrics.status, metrics.headers.get('content-encoding')]).toEqual([
        200,
        null,
        200,
        null,
      ]);
    });
  });

  describe('paths under /docs that are not served: 404 not_found like any unknown path (the UI files: edge-answers)', () => {
    it.each(['/docs/../v1/pets', '/docs/%2e%2e/v1/pets'])('GET %s, sent as is (fetch would resolve the dots)', async (path) => {
      const { answer } = await sendRaw(api.baseUrl, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect({ status: answer?.status, contentType: answer?.headers['content-type'], body: answer?.body }).toEqual({
        status: 404,
        contentType: JSON_CONTENT_TYPE,
        body: { code: 'not_found', message: `No route matches GET ${path}`, status: 404 },
      });
    });

    it('a UI file asked with another method: 405 with Allow, as any known path', async () => {
      const response = await api.request('POST', '/docs/swagger-ui.css');
      expectError(response, 405, 'method_not_allowed', 'POST is not allowed on /docs/swagger-ui.css; allowed: GET, HEAD');
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    });
  });
});
