import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEYS_CLI, ROOT, runOrThrow } from '../support/processes';
import { ServiceProcess, createServiceDatabase, startServiceProcess } from '../support/service-process';
import { TEST_API_KEY } from '../support/test-key';
import { PrismProxy, documentForPrism, responseViolations, startPrismProxy } from './prism-proxy';

/**
 * An independent validator: the built service's answers to every kind of request go through Stoplight
 * Prism's validating proxy (5.14.2), which checks them against the committed document. Prism's own
 * limits are worked around here, not in the service:
 * - it ignores the relative server `/v1`: the proxy's upstream ends in `/v1` (see documentForPrism);
 * - it matches the bearer scheme case-sensitively: the requests send `Bearer`;
 * - it caps int64 at 2^53: no id above it is sent;
 * - it answers the orders 501 with a mocked 401 of its own (it re-mocks any answer it has no example
 *   for): `GET /store/orders` is left out;
 * - it never answers a request whose JSON body does not parse (its own body parser fails): the 400
 *   `malformed_json` is left out (test/e2e checks it against the document).
 */
const KEY = { authorization: `Bearer ${TEST_API_KEY}` };
const JSON_BODY = { ...KEY, 'content-type': 'application/json' };

describe("the service through Prism's validating proxy", () => {
  let service: ServiceProcess;
  let database: Awaited<ReturnType<typeof createServiceDatabase>>;
  let prism: PrismProxy;
  let readKey: string | undefined;
  let dir = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-prism-'));
    database = await createServiceDatabase();
    service = await startServiceProcess(database.env);
    const document = JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8'));
    prism = await startPrismProxy(documentForPrism(document, join(dir, 'openapi.json')), `${service.baseUrl}/v1`);
    // A key without pets:write, for a 403; the key tool needs the server database the service uses.
    if (database.env.DATABASE_URL) {
      const env = { ...database.env, NODE_ENV: 'test' };
      readKey = runOrThrow(process.execPath, [KEYS_CLI, 'create', '--name', 'prism-read', '--scopes', 'pets:read'], ROOT, { env }).trim();
    }
  }, 180_000);

  afterAll(async () => {
    await prism?.stop();
    await service?.stop();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function send(method: string, path: string, headers: Record<string, string>, body?: string) {
    try {
      const response = await fetch(prism.url + path, { method, headers, body, signal: AbortSignal.timeout(20_000) });
      await response.text();
      return { status: response.status, violations: responseViolations(response), link: response.headers.get('link') };
    } catch (error) {
      return { status: 0, violations: [String(error)], link: null };
    }
  }

  it('finds no response violation in answers of every documented kind', async () => {
    const pet = JSON.stringify({ name: 'Rex', categoryId: 3 });
    const results: Record<string, { status: number; violations: unknown[] }> = {};
    const record = async (name: string, method: string, path: string, headers: Record<string, string>, body?: string) =>
      (results[name] = await send(method, path, headers, body));

    await record('create 201', 'POST', '/pets', JSON_BODY, pet);
    await record('create 201 with status', 'POST', '/pets', JSON_BODY, JSON.stringify({ name: 'Tom', categoryId: 1, status: 'sold' }));
    await record('create 201 idempotent', 'POST', '/pets', { ...JSON_BODY, 'idempotency-key': 'prism-1' }, pet);
    await record('create 201 replayed', 'POST', '/pets', { ...JSON_BODY, 'idempotency-key': 'prism-1' }, pet);
    await record(
      'create 422 key reused',
      'POST',
      '/pets',
      { ...JSON_BODY, 'idempotency-key': 'prism-1' },
      JSON.stringify({ name: 'Other', categoryId: 2 }),
    );
    await record('create 400 blank name', 'POST', '/pets', JSON_BODY, JSON.stringify({ name: '  ', categoryId: 1 }));
    await record('create 400 no body', 'POST', '/pets', KEY);
    await record('create 415', 'POST', '/pets', { ...KEY, 'content-type': 'text/plain' }, 'Rex');
    await record('create 413', 'POST', '/pets', JSON_BODY, JSON.stringify({ name: 'x'.repeat(70 * 1024), categoryId: 1 }));
    const first = await record('list 200', 'GET', '/pets?limit=1', KEY);
    const next = /<\/v1(\/pets\?[^>]+)>; rel="next"/.exec((first as { link: string | null }).link ?? '')?.[1];
    expect(next).toBeDefined();
    await record('list 200 next page', 'GET', next!, KEY);
    await record('list 200 by status', 'GET', '/pets?status=sold', KEY);
    await record('list 400 limit', 'GET', '/pets?limit=%2B5', KEY);
    await record('list 400 cursor', 'GET', '/pets?cursor=forged', KEY);
    await record('get 200', 'GET', '/pets/1', KEY);
    await record('get 404', 'GET', '/pets/999999', KEY);
    await record('get 400', 'GET', '/pets/1e3', KEY);
    await record('get 401', 'GET', '/pets/1', {});
    await record('list 401 unknown key', 'GET', '/pets', { authorization: 'Bearer not-a-key-of-this-service' });
    if (readKey) await record('create 403', 'POST', '/pets', { authorization: `Bearer ${readKey}`, 'content-type': 'application/json' }, pet);

    expect(Object.fromEntries(Object.entries(results).map(([name, r]) => [name, r.status]))).toEqual({
      'create 201': 201,
      'create 201 with status': 201,
      'create 201 idempotent': 201,
      'create 201 replayed': 201,
      'create 422 key reused': 422,
      'create 400 blank name': 400,
      'create 400 no body': 400,
      'create 415': 415,
      'create 413': 413,
      'list 200': 200,
      'list 200 next page': 200,
      'list 200 by status': 200,
      'list 400 limit': 400,
      'list 400 cursor': 400,
      'get 200': 200,
      'get 404': 404,
      'get 400': 400,
      'get 401': 401,
      'list 401 unknown key': 401,
      ...(readKey ? { 'create 403': 403 } : {}),
    });
    const violations = Object.entries(results).filter(([, r]) => r.violations.length > 0);
    expect(violations).toEqual([]);
  }, 300_000);

  it('reports a violation when the answer breaks the document (the harness can fail)', async () => {
    const document = JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8'));
    document.components.schemas.Pet.properties.name.maxLength = 1;
    const strict = await startPrismProxy(documentForPrism(document, join(dir, 'planted.json')), `${service.baseUrl}/v1`);
    try {
      const response = await fetch(`${strict.url}/pets/1`, { headers: KEY });
      expect(responseViolations(response)).toEqual([expect.objectContaining({ location: ['response', 'body', 'name'] })]);
    } finally {
      await strict.stop();
    }
  }, 120_000);
});
