import { KEYS_CLI, run } from '../support/processes';
import { ServiceProcess, createServiceDatabase, startServiceProcess } from '../support/service-process';
import { STARTUP_TIMEOUT_MS } from '../support/test-database';
import { AUTH } from '../support/test-key';

/**
 * The smoke subset CI runs on every other supported Node.js line (.ci/run): the built service started as
 * a process, the three operations, and the key tool beside it. The full suites cover each in depth.
 */
describe('smoke: the built service and the key tool on this Node.js', () => {
  let database: Awaited<ReturnType<typeof createServiceDatabase>>;
  let service: ServiceProcess;
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${service.baseUrl}${path}`, { ...init, headers: { ...AUTH, 'content-type': 'application/json', ...init.headers } });

  beforeAll(async () => {
    database = await createServiceDatabase({ firstStart: true });
    service = await startServiceProcess(database.env);
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
  }, STARTUP_TIMEOUT_MS);

  it('creates a pet, lists it and gets it', async () => {
    const created = await call('/v1/pets', { method: 'POST', body: JSON.stringify({ name: 'Smoke', categoryId: 1, status: 'available' }) });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number };
    expect(pet).toEqual({ id: expect.any(Number), name: 'Smoke', categoryId: 1, status: 'available' });
    expect(created.headers.get('location')).toMatch(new RegExp(`/v1/pets/${pet.id}$`));

    const listed = await call('/v1/pets?status=available');
    expect(listed.status).toBe(200);
    expect(await listed.json()).toContainEqual(pet);

    const got = await call(`/v1/pets/${pet.id}`);
    expect([got.status, await got.json()]).toEqual([200, pet]);
  });

  it('keys create, beside the running service, prints a key the service accepts at once', async () => {
    const created = await run(process.execPath, [KEYS_CLI, 'create', '--name', 'smoke'], database.env);
    expect([created.code, created.stderr]).toEqual([0, expect.stringContaining('Created API key')]);
    const key = created.stdout.trim();
    expect(key).toMatch(/^pet_[A-Za-z0-9_-]{43}$/);
    expect((await call('/v1/pets', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });
});
