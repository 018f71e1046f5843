import fc from 'fast-check';
import { useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';

const segment = fc.oneof(
  fc.constantFrom(
    'v1',
    'pets',
    'store',
    'orders',
    'docs',
    'health',
    'live',
    'ready',
    '1',
    '0',
    '-1',
    '9223372036854775808',
    '%E0%A4%A',
    '%zz',
    '..',
    '%00',
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const path = fc.oneof(
  fc.constantFrom('/v1/pets', '/v1/pets/1', '/v1/pets/abc', '/v1/store/orders', '/health/live', '/health/ready', '/docs/openapi.json', '/pets', '/'),
  fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`),
);
const query = fc.oneof(
  fc.constant(''),
  fc
    .dictionary(
      fc.constantFrom('limit', 'status', 'cursor', 'access_token', 'x'),
      fc.oneof(fc.constantFrom('0', '1', '100', '101', 'abc', '1.5', '', 'sold', 'lost'), fc.string({ maxLength: 8 })),
      { maxKeys: 3 },
    )
    .map((params) => `?${new URLSearchParams(params).toString()}`),
);
const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 });
const headers = fc.record(
  {
    authorization: fc.oneof(fc.constant(AUTH.authorization), fc.constant('Bearer nope-0123456789abcdef'), fc.constant('bearer'), printable),
    'content-type': fc.oneof(
      fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/json; charset=latin1', 'multipart/form-data'),
      printable,
    ),
    'idempotency-key': printable,
    'x-request-id': printable,
    accept: fc.constantFrom('application/json', '*/*', 'text/html'),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 2 }),
  fc
    .record(
      { name: fc.oneof(fc.string(), fc.integer()), categoryId: fc.oneof(fc.integer(), fc.double(), fc.string()), status: fc.string() },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
  fc.string({ maxLength: 50 }),
);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS');

describe('fuzz: random requests on every route (e2e)', () => {
  const api = useTestApp({ RATE_LIMIT_PER_MINUTE: '0' });

  it('never answers 5xx (but the orders 501) and every error is an Error body with its status', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, headers, body, async (m, p, q, h, b) => {
        const sendsBody = b !== undefined && m !== 'GET' && m !== 'HEAD';
        const response = await fetch(api.baseUrl + p + q, { method: m, headers: h, body: sendsBody ? b : undefined });
        const text = await response.text();
        const where = `${m} ${p}${q} -> ${response.status} ${text.slice(0, 200)}`;
        if (response.status >= 500) expect([where, response.status]).toEqual([where, 501]);
        if (response.status === 501) expect(new URL(api.baseUrl + p).pathname).toBe('/v1/store/orders');
        if (response.status >= 400 && m !== 'HEAD') {
          expect(response.headers.get('content-type')).toMatch(/^application\/json/);
          const error = JSON.parse(text);
          expect([where, typeof error.code, typeof error.message, error.status]).toEqual([where, 'string', 'string', response.status]);
        }
      }),
      { numRuns: 300 },
    );
  }, 120000);
});
