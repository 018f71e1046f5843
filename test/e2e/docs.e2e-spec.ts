import { API_VERSION } from '@petstore/contracts';
import { STARTUP_TIMEOUT_MS, useTestApp } from '../support/test-app';
import { JSON_CONTENT_TYPE } from '../support/expectations';

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
});
