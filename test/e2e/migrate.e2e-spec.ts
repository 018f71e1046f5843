import { join } from 'node:path';
import { Client } from 'pg';
import { ROOT, run } from '../support/processes';
import { createTestDatabase } from '../support/test-database';

jest.setTimeout(120_000);

const MIGRATE = join(ROOT, 'apps', 'api', 'dist', 'bin', 'migrate.js');

/** The release step the Kubernetes Job and the Compose files run before the instances start. */
(process.env.DATABASE_URL ? describe : describe.skip)('the migrate tool (e2e)', () => {
  it('applies every migration on the direct URL, and again finds nothing to do', async () => {
    const database = await createTestDatabase();
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/pooler-not-used', DATABASE_DIRECT_URL: database.url };
      const applied: number[] = [];
      for (let i = 0; i < 2; i++) {
        const result = await run(process.execPath, [MIGRATE], env);
        expect([result.code, result.stderr]).toEqual([0, 'Migrations applied\n']);
        applied.push(Number((await client.query('SELECT count(*) FROM migrations')).rows[0].count));
      }
      expect(applied[0]).toBeGreaterThan(0);
      expect(applied[1]).toBe(applied[0]);
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
