import { useTestApp } from '../support/test-app';

describe('health (e2e)', () => {
  const api = useTestApp();

  it('live answers 200 without an API key', async () => {
    const response = await api.request('GET', '/health/live');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('ready answers 200 without an API key when the database answers', async () => {
    const response = await api.request('GET', '/health/ready');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
  });

  it('is outside /v1', async () => {
    const response = await api.request('GET', '/v1/health/live');
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('not_found');
  });

  it('is listed in the document with a server outside /v1', async () => {
    const document = (await api.request('GET', '/docs/openapi.json')).body;
    expect(document.paths['/health/ready'].servers).toEqual([{ url: '/', description: 'This instance (outside /v1)' }]);
    expect(document.paths['/health/live'].get.operationId).toBe('live');
  });
});
