import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { loadConfig } from '../../apps/api/src/config/config';
import { MAIN } from '../support/processes';
import { TestDatabase, createTestDatabase } from '../support/test-database';
import { AUTH, TEST_API_KEY } from '../support/test-app';

const onServer = process.env.DATABASE_URL ? it : it.skip;

describe('WEB_CONCURRENCY (e2e)', () => {
  it('is refused above 1 without DATABASE_URL: the embedded PostgreSQL serves one process', () => {
    expect(() => loadConfig({ WEB_CONCURRENCY: '2' })).toThrow(/WEB_CONCURRENCY above 1 needs DATABASE_URL/);
    expect(() => loadConfig({ WEB_CONCURRENCY: '0', DATABASE_URL: 'postgres://x/y' })).toThrow(/WEB_CONCURRENCY must be an integer from 1 to 64/);
  });

  describe('on a PostgreSQL server', () => {
    let database: TestDatabase;
    let service: ChildProcess;

    beforeAll(async () => {
      if (process.env.DATABASE_URL) database = await createTestDatabase();
    });
    afterAll(async () => {
      if (service?.exitCode === null) service.kill('SIGKILL');
      await database?.drop();
    });

    onServer('serves from two worker processes on one port, and drains them all on SIGTERM', async () => {
      service = spawn(process.execPath, [MAIN], {
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'test',
          LOG_LEVEL: 'info',
          WEB_CONCURRENCY: '2',
          DATABASE_URL: database.url,
          REDIS_URL: 'redis://127.0.0.1:6379',
          API_KEYS: TEST_API_KEY,
          PORT: '0',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const ports: string[] = [];
      for await (const line of createInterface({ input: service.stdout! })) {
        const match = /listening on http:\/\/127\.0\.0\.1:(\d+)\/v1/.exec(line);
        if (match) ports.push(match[1]);
        if (ports.length === 2) break;
      }
      expect(ports[0]).toBe(ports[1]);
      const workers = readFileSync(`/proc/${service.pid}/task/${service.pid}/children`, 'utf8').trim().split(' ');
      expect(workers).toHaveLength(2);
      const created = await fetch(`http://127.0.0.1:${ports[0]}/v1/pets`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      });
      expect(created.status).toBe(201);
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () => fetch(`http://127.0.0.1:${ports[0]}/v1/pets/1`, { headers: AUTH }).then((r) => r.status)),
      );
      expect(statuses).toEqual(Array(20).fill(200));
      const exited = once(service, 'exit');
      service.kill('SIGTERM');
      expect(await exited).toEqual([0, null]);
    });
  });
});
