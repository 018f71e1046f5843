import { DataSource } from 'typeorm';
import { STARTUP_TIMEOUT_MS, TestDatabase, createTestDatabase } from '../support/test-database';
import { BoundedQueries } from '../../apps/api/src/database/bounded-queries';
import { DatabaseTarget, databaseOptions } from '../../apps/api/src/database/database.options';
import { migrate } from '../../apps/api/src/database/migrate';

const onServer = process.env.DATABASE_URL ? describe : describe.skip;

/** The database options on a real PostgreSQL (what needs a server is skipped on the embedded one). */
describe('database', () => {
  let database: TestDatabase;
  const open: DataSource[] = [];
  const connect = async (target: DatabaseTarget) => {
    const dataSource = await new DataSource(databaseOptions(target, 1)).initialize();
    open.push(dataSource);
    return dataSource;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all(open.map((dataSource) => dataSource.destroy()));
    await database?.drop();
  }, STARTUP_TIMEOUT_MS);

  it('applies the migrations once when three instances start at the same moment', async () => {
    const target = { url: database.url, embedded: database.embedded };
    await Promise.all([migrate(target), migrate(target), migrate(target)]);
    const rows: Array<{ name: string }> = await (await connect(target)).query('SELECT name FROM migrations ORDER BY id');
    expect(rows.map((row) => row.name)).toEqual([
      'CreatePets1763769600000',
      'CreateApiKeys1763856000000',
      'CreateIdempotencyKeys1763942400000',
      'CapPetIds1764028800000',
      'AddApiKeysLastDeprecatedCall1764115200000',
    ]);
  });

  onServer('on a server', () => {
    /** Waits up to 1.5 s for PostgreSQL to stop running the statement marked `marker`; true when it still runs. */
    const stillRuns = async (dataSource: DataSource, marker: string) => {
      const running = async () =>
        (await dataSource.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE $1`, [`%${marker} */%`]))[0]
          .n > 0;
      for (let tries = 0; tries < 30 && (await running()); tries++) await new Promise((resolve) => setTimeout(resolve, 50));
      return running();
    };

    it('has PostgreSQL end a statement that runs past statement_timeout on a direct connection', async () => {
      const dataSource = await connect({ url: database.url, embedded: false });
      const started = performance.now();
      // The client's query_timeout and the server's statement_timeout are equal: either may answer first.
      await expect(dataSource.query('SELECT pg_sleep(60) /* direct */')).rejects.toThrow(/statement timeout|Query read timeout/);
      expect(performance.now() - started).toBeLessThan(3000);
      expect(await stillRuns(dataSource, 'direct')).toBe(false);
      expect(await dataSource.query('SELECT 1 AS n')).toEqual([{ n: 1 }]);
    });

    it('through a transaction pooler, sends no startup parameter; BoundedQueries has PostgreSQL end a statement past the timeout', async () => {
      const target: DatabaseTarget = { url: database.url, embedded: false, pooling: 'transaction' };
      const dataSource = await connect(target);
      expect(await dataSource.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '0' }]);
      const bounded = new BoundedQueries(dataSource, target);
      const started = performance.now();
      await expect(bounded.query('sleep', 'SELECT pg_sleep(60) /* pooled */')).rejects.toThrow(/statement timeout|Query read timeout/);
      expect(performance.now() - started).toBeLessThan(3000);
      expect(await stillRuns(dataSource, 'pooled')).toBe(false);
      // SET LOCAL did not outlive its transaction: no session state is left on the connection.
      expect(await dataSource.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '0' }]);
      expect(await bounded.query('two', 'SELECT 2 AS n')).toEqual([{ n: 2 }]);
    });
  });
});
