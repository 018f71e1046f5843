import { useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';
import { JSON_CONTENT_TYPE, expectError } from '../support/expectations';

describe('routing errors and the Error body (e2e)', () => {
  const api = useTestApp();

  describe('unknown routes: 404 not_found', () => {
    it.each([
      ['GET', '/pets'],
      ['POST', '/pets'],
      ['GET', '/pets/1'],
      ['GET', '/store/orders'],
      ['GET', '/'],
      ['GET', '/v1'],
      ['GET', '/v1/'],
      ['GET', '/v2/pets'],
      ['GET', '/V1/pets'],
      ['GET', '/v1/pet'],
      ['GET', '/v1/pets/1/owner'],
      ['GET', '/v1/pets/'],
      ['DELETE', '/v1/pets/'],
      ['GET', '/v1/store'],
      ['QUERY', '/v1/nope'],
    ])('%s %s', async (method, path) => {
      const response = await api.request(method, path, { headers: AUTH });
      expectError(response, 404, 'not_found', `No route matches ${method} ${path}`);
    });

    it('answers 404 without a key too, and echoes no query string', async () => {
      expectError(await api.request('GET', '/pets?limit=5'), 404, 'not_found', 'No route matches GET /pets');
    });

    it.each([
      ['/v1/pets/1/pet_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE', '/v1/pets/1/pet_…'],
      ['/x/pet%5FAbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE', '/x/pet_…'],
    ])('echoes no key-shaped text of the path: %s', async (path, echoed) => {
      expectError(await api.request('GET', path, { headers: AUTH }), 404, 'not_found', `No route matches GET ${echoed}`);
    });

    it('shortens a very long path in the message', async () => {
      const path = `/v1/${'a'.repeat(300)}`;
      expectError(await api.request('GET', path, { headers: AUTH }), 404, 'not_found', `No route matches GET ${path.slice(0, 200)}…`);
    });
  });

  describe('known path, wrong method: 405 method_not_allowed with Allow', () => {
    it.each([
      ['DELETE', '/v1/pets', 'GET, HEAD, POST'],
      ['PUT', '/v1/pets', 'GET, HEAD, POST'],
      ['PATCH', '/v1/pets', 'GET, HEAD, POST'],
      ['OPTIONS', '/v1/pets', 'GET, HEAD, POST'],
      ['POST', '/v1/pets/1', 'GET, HEAD'],
      ['DELETE', '/v1/pets/1', 'GET, HEAD'],
      ['PUT', '/v1/pets/abc', 'GET, HEAD'],
      ['POST', '/v1/store/orders', 'GET, HEAD'],
      // Fastify refuses a QUERY without Content-Type (RFC 10008) before it routes: no route serves QUERY.
      ['QUERY', '/v1/pets', 'GET, HEAD, POST'],
      ['QUERY', '/v1/pets/1', 'GET, HEAD'],
    ])('%s %s', async (method, path, allow) => {
      const response = await api.request(method, path, { headers: AUTH });
      expectError(response, 405, 'method_not_allowed', `${method} is not allowed on ${path}; allowed: ${allow}`);
      expect(response.headers.get('allow')).toBe(allow);
    });
  });

  it('answers 405 before authentication, as there is no operation to authorise', async () => {
    const response = await api.request('DELETE', '/v1/pets/1');
    expectError(response, 405, 'method_not_allowed', 'DELETE is not allowed on /v1/pets/1; allowed: GET, HEAD');
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('serves HEAD wherever GET is served, with headers and no body', async () => {
    const response = await api.request('HEAD', '/v1/pets', { headers: AUTH });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_CONTENT_TYPE);
    expect(response.text).toBe('');
  });

  describe('GET /v1/store/orders', () => {
    it('answers 501 not_implemented to an authenticated request', async () => {
      const response = await api.request('GET', '/v1/store/orders', { headers: AUTH });
      expectError(response, 501, 'not_implemented', 'GET /v1/store/orders is not implemented yet: its behaviour is not specified');
    });
  });

  describe('a path that is not a valid URL', () => {
    it('answers 400 validation_failed with the Error body', async () => {
      expectError(await api.request('GET', '/v1/pets/%ZZ', { headers: AUTH }), 400, 'validation_failed', 'The request path is not a valid URL');
    });
  });
});
