import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document, Ruleset, Spectral } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { API_VERSION } from '@petstore/contracts';
import { parse } from 'yaml';

const ROOT = join(__dirname, '..', '..');

/**
 * The committed snapshot, its shape and what is made of it; openapi.e2e-spec.ts holds it equal to the one served. Nothing
 * here depends on the database, so unlike that suite this one is not run again on the embedded PostgreSQL.
 */
describe('the OpenAPI document (docs/openapi.json)', () => {
  const document = JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8'));

  it('has the client types generated from the snapshot (regenerate them with `pnpm client:generate`)', () => {
    // openapi-typescript --check fails when regenerating would change libs/client/src/schema.ts.
    expect(() => execFileSync('pnpm', ['run', 'generate', '--check'], { cwd: join(ROOT, 'libs', 'client'), stdio: 'pipe' })).not.toThrow();
  });

  it("passes Spectral's spectral:oas rules with no finding but those .spectral.yaml turns off, each with its reason", async () => {
    // .spectral.yaml as Spectral's CLI reads it, its `spectral:oas` being the ruleset that name stands for.
    const config = parse(readFileSync(join(ROOT, '.spectral.yaml'), 'utf8'));
    const spectral = new Spectral();
    spectral.setRuleset(new Ruleset({ ...config, extends: [oas] }, { source: join(ROOT, '.spectral.yaml') }));
    const file = join(ROOT, 'docs', 'openapi.json');
    const findings = await spectral.run(new Document(readFileSync(file, 'utf8'), Json, file));
    expect(findings.map((f) => `${f.code} at ${f.path.join('.')}: ${f.message}`)).toEqual([]);
  });

  it('describes the four operations with their markers, relative to servers ending in /v1', () => {
    expect(document.info).toMatchObject({ title: 'Pet Store API', version: API_VERSION });
    expect(document.servers.map((s: { url: string }) => s.url)).toEqual([
      '/v1',
      'https://petstore.example.com/v1',
      'https://staging.petstore.example.com/v1',
    ]);
    const all = Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
      Object.entries(item)
        .filter(([method]) => method !== 'servers')
        .map(([method, op]: [string, any]) => ({ path, method, ...op })),
    );
    // The health checks are operational endpoints outside /v1 that need no key.
    const health = all.filter((o) => o.path.startsWith('/health/'));
    expect(health.map((o) => `${o.method} ${o.path} ${o.operationId} ${JSON.stringify(o.security)}`).sort()).toEqual([
      'get /health/live live []',
      'get /health/ready ready []',
    ]);
    const operations = all.filter((o) => !o.path.startsWith('/health/'));
    expect(operations.map((o) => `${o.method} ${o.path} ${o.operationId}`).sort()).toEqual([
      'get /pets listPets',
      'get /pets/{petId} getPet',
      'get /store/orders listOrders',
      'post /pets createPet',
    ]);
    for (const op of operations) {
      expect(op.security).toEqual([{ apiKey: [] }]);
      expect(op.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    }
    expect(document.components.securitySchemes).toEqual({
      apiKey: { type: 'http', scheme: 'bearer', description: expect.any(String) },
    });
    const getPet = document.paths['/pets/{petId}'].get;
    expect(getPet.deprecated).toBe(true);
    expect(getPet.description).toContain('5 December 2030');
    expect(Object.keys(getPet.responses['200'].headers).sort()).toEqual([
      'Deprecation',
      'Link',
      'RateLimit',
      'RateLimit-Policy',
      'Sunset',
      'X-Request-Id',
    ]);
    expect(operations.filter((o) => o['x-stability']).map((o) => [o.operationId, o['x-stability']])).toEqual([['listOrders', 'experimental']]);
    const listPets = document.paths['/pets'].get;
    expect(listPets.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20, example: 20 } }),
        expect.objectContaining({ name: 'status', in: 'query', schema: { $ref: '#/components/schemas/PetStatus' } }),
      ]),
    );
    expect(document.components.schemas.NewPet.properties.status.default).toBe('available');
  });

  it('shows for each error the codes its operation can answer, and marks the headers always sent as required', () => {
    const codes = (op: any, status: string) =>
      Object.values(op.responses[status].content['application/json'].examples).map((e: any) => e.value.code as string);
    const [list, create, get, orders] = [
      document.paths['/pets'].get,
      document.paths['/pets'].post,
      document.paths['/pets/{petId}'].get,
      document.paths['/store/orders'].get,
    ];
    expect(codes(list, '400')).toEqual(['validation_failed', 'validation_failed', 'validation_failed']);
    expect(codes(get, '400')).toEqual(['validation_failed']);
    expect([...new Set(codes(create, '400'))]).toEqual(['validation_failed', 'malformed_json']);
    for (const op of [list, create, get, orders]) {
      expect(codes(op, '403')).toEqual(['forbidden']);
      expect(op.responses['403'].content['application/json'].examples.forbidden.value.message).toContain(op['x-required-scopes'][0]);
      expect(op.responses['401'].headers['WWW-Authenticate'].required).toBe(true);
      expect(op.responses['403'].headers['WWW-Authenticate'].required).toBe(true);
      expect(op.responses['429'].headers['Retry-After'].required).toBe(true);
      // The limiter's fields wherever the key was accepted (not required: the limit may be off), the request id everywhere.
      const declared = Object.entries<any>(op.responses).map(([status, r]) => [
        status,
        r.headers?.RateLimit?.required,
        r.headers['X-Request-Id'].required,
      ]);
      expect(declared).toEqual(Object.keys(op.responses).map((status) => [status, status === '401' ? undefined : false, false]));
    }
    expect(create.responses['201'].headers.Location.required).toBe(true);
    expect(create.responses['201'].headers['Idempotent-Replayed'].schema).toEqual({ type: 'string', enum: ['true'] });
    for (const [status, response] of Object.entries<any>(get.responses)) {
      // The router's 400 for a path that is not a valid URL comes before the operation, without them.
      const required = status !== '400';
      expect([status, response.headers.Deprecation.required, response.headers.Sunset.required, response.headers.Link.required]).toEqual([
        status,
        required,
        required,
        required,
      ]);
    }
    expect(get.parameters[0].schema.example).toBe(1);
  });
});
