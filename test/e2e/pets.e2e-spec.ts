import { AUTH, TestApp, countPets, startTestApp } from '../support/test-app';

describe('pets (e2e)', () => {
  let api: TestApp;

  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(async () => {
    await api?.close();
  });
  beforeEach(async () => {
    await api.sql.query('TRUNCATE pets RESTART IDENTITY');
  });

  it('adds an animal: 201, the Pet with its id, and a Location header', async () => {
    const response = await api.request('POST', '/v1/pets', { headers: AUTH, body: { name: 'Rex', categoryId: 3 } });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('location')).toBe('/v1/pets/1');
    expect(response.body).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'available' });
  });

  it('refuses an unauthenticated bad body with 401 and stores nothing', async () => {
    const response = await api.request('POST', '/v1/pets', { body: '{bad' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(response.body).toEqual({
      code: 'unauthorized',
      message: 'An API key is required: send "Authorization: Bearer <API key>"',
      status: 401,
    });
    expect(await countPets(api)).toBe(0);
  });
});
