import { useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';

const STRICT_TRANSPORT = 'max-age=31536000; includeSubDomains';

/**
 * HSTS and the CSP's `upgrade-insecure-requests` are true only of a request that came over TLS: over
 * plain HTTP they sent browsers to an https that is not there (Swagger UI blank at any name but localhost).
 */
describe('TLS-dependent security headers (e2e)', () => {
  // 127.0.0.1 plays the TLS-terminating proxy: its X-Forwarded-Proto is believed.
  const api = useTestApp({ TRUST_PROXY: '127.0.0.1' });

  it.each([
    ['the API', '/v1/pets', AUTH],
    ['Swagger UI', '/docs', {}],
    ['an unknown route', '/nowhere', AUTH],
  ])('over plain HTTP, %s gets neither HSTS nor upgrade-insecure-requests, and keeps the strict CSP', async (_case, path, headers) => {
    const response = await api.request('GET', path, { headers, contract: false });
    expect(response.headers.get('strict-transport-security')).toBeNull();
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.each([
    ['the API', '/v1/pets', AUTH],
    ['Swagger UI', '/docs', {}],
    ['an unknown route', '/nowhere', AUTH],
  ])('behind a trusted proxy that terminated TLS, %s gets HSTS and upgrade-insecure-requests', async (_case, path, headers) => {
    const response = await api.request('GET', path, { headers: { ...headers, 'x-forwarded-proto': 'https' }, contract: false });
    expect(response.headers.get('strict-transport-security')).toBe(STRICT_TRANSPORT);
    expect(response.headers.get('content-security-policy')).toMatch(/;upgrade-insecure-requests$/);
  });
});

describe('TLS-dependent security headers without a trusted proxy (e2e)', () => {
  const api = useTestApp();

  it('an X-Forwarded-Proto from an untrusted peer changes nothing', async () => {
    const response = await api.request('GET', '/v1/pets', { headers: { ...AUTH, 'x-forwarded-proto': 'https' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('strict-transport-security')).toBeNull();
    expect(response.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
  });
});
