import { runInNewContext } from 'node:vm';
import { TestApp, startTestApp, STARTUP_TIMEOUT_MS } from '../support/test-app';
import { JSON_CONTENT_TYPE } from '../support/expectations';

const PUBLIC_BASE_URL = 'https://api.petstore.test/v1';
const STAGING_BASE_URL = 'https://staging.petstore.test/v1';

describe('the API documents, served without a key (e2e)', () => {
  let api: TestApp;
  let document: any;

  beforeAll(async () => {
    api = await startTestApp({ PUBLIC_BASE_URL, STAGING_BASE_URL });
    document = (await api.request('GET', '/docs/openapi.json')).body;
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await api?.close();
  }, STARTUP_TIMEOUT_MS);

  it('serves the OpenAPI 3 document as JSON at /docs/openapi.json', async () => {
    const response = await api.request('GET', '/docs/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_CONTENT_TYPE);
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info).toMatchObject({ title: 'Pet Store API', version: '1.0.0' });
  });

  it('serves the same document as YAML at /docs/openapi.yaml', async () => {
    const response = await api.request('GET', '/docs/openapi.yaml');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/yaml/);
    expect(response.text).toMatch(/^openapi: 3\./);
    expect(response.text).toContain('version: 1.0.0');
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

  it('has paths relative to the /v1 servers, with the decided operationIds', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { operationId: string }>).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual(['GET /pets listPets', 'GET /pets/{petId} getPet', 'GET /store/orders listOrders', 'POST /pets createPet']);
  });

  it('requires the bearer API key on every operation', () => {
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'API key' });
    for (const item of Object.values(document.paths) as Record<string, { security: unknown }>[]) {
      for (const operation of Object.values(item)) expect(operation.security).toEqual([{ apiKey: [] }]);
    }
  });

  it('marks getPet deprecated and listOrders experimental', () => {
    expect(document.paths['/pets/{petId}'].get.deprecated).toBe(true);
    expect(document.paths['/store/orders'].get['x-stability']).toBe('experimental');
    expect(document.paths['/pets'].get.deprecated).toBeUndefined();
  });

  it('documents petId as an int64 without a rounded maximum', () => {
    const petId = document.paths['/pets/{petId}'].get.parameters.find((p: { name: string }) => p.name === 'petId');
    expect(petId).toMatchObject({ in: 'path', required: true, schema: { type: 'integer', format: 'int64', minimum: 1 } });
    expect(petId.schema.maximum).toBeUndefined();
  });

  it('documents the limit bounds and default, and the status default', () => {
    const limit = document.paths['/pets'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(document.components.schemas.NewPet.properties.status.default).toBe('available');
    expect(document.components.schemas.NewPet.additionalProperties).toBe(false);
  });

  it('gives Swagger UI no "Try it out" for experimental operations only', async () => {
    const script = (await api.request('GET', '/docs/swagger-ui-init.js')).text;
    // Run the page's init script with a stand-in SwaggerUIBundle that records the options it gets.
    let options: any;
    const window: any = { location: { search: '', origin: api.baseUrl } };
    const SwaggerUIBundle: any = (given: unknown) => ((options = given), {});
    SwaggerUIBundle.presets = { apis: {} };
    SwaggerUIBundle.plugins = { DownloadUrl: () => ({ downloadUrl: true }) };
    runInNewContext(script, { window, SwaggerUIBundle, SwaggerUIStandalonePreset: {}, globalThis: { SwaggerUIBundle } });
    window.onload();
    const plugins = options.plugins.map((plugin: (system: unknown) => any) => plugin({}));
    expect(plugins[0]).toEqual({ downloadUrl: true });
    const wrap = plugins[1].statePlugins.spec.wrapSelectors.allowTryItOutFor;
    const system = { specSelectors: { specJson: () => ({ getIn: ([, path, method, key]: string[]) => document.paths[path]?.[method]?.[key] }) } };
    const allowTryItOutFor = wrap(() => true, system);
    expect(allowTryItOutFor({}, '/store/orders', 'get')).toBe(false);
    expect(allowTryItOutFor({}, '/pets', 'get')).toBe(true);
    expect(allowTryItOutFor({}, '/pets', 'post')).toBe(true);
    expect(allowTryItOutFor({}, '/pets/{petId}', 'get')).toBe(true);
  });
});
