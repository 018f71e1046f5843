import { DataSource } from 'typeorm';
import { STARTUP_TIMEOUT_MS, TestDatabase, createTestDatabase } from '../support/test-database';
import { Database, Statement } from '../../apps/api/src/database/database';
import { DatabaseTarget, databaseOptions } from '../../apps/api/src/database/database.options';
import { migrate } from '../../apps/api/src/database/migrate';

const onServer = process.env.DATABASE_URL ? describe : describe.skip;
const ONE: Statement = { name: 'database_spec_one', text: 'SELECT $1::int AS n' };

/** The data-access layer on a real PostgreSQL (what needs a server is skipped on the embedded one). */
describe('Database', () => {
  let database: TestDatabase;
  const open: DataSource[] = [];
  const connect = async (target: DatabaseTarget, timeouts = true) => {
    const dataSource = await new DataSource(databaseOptions(target, 1, timeouts)).initialize();
    open.push(dataSource);
    return new Database(dataSource, target);
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
    const db = await connect(target);
    const rows = await db.rows<{ name: string }>({ name: 'migrations_applied', text: 'SELECT name FROM migrations ORDER BY id' }, []);
    expect(rows.map((row) => row.name)).toEqual([
      'CreatePets1763769600000',
      'CreateApiKeys1763856000000',
      'CreateIdempotencyKeys1763942400000',
      'CapPetIds1764028800000',
      'AddApiKeysLastDeprecatedCall1764115200000',
    ]);
  });

  it('offers a session connection for LISTEN only where one can be held', () => {
    const db = (target: DatabaseTarget) => new Database({} as DataSource, target);
    expect(db({ url: 'postgres://a/db', embedded: false }).sessionUrl).toBe('postgres://a/db');
    expect(db({ url: 'postgres://a/db', embedded: false, pooling: 'session' }).sessionUrl).toBe('postgres://a/db');
    expect(db({ url: 'postgres://pooler/db', embedded: false, pooling: 'transaction' }).sessionUrl).toBeUndefined();
    expect(db({ url: 'postgres://pooler/db', embedded: false, pooling: 'transaction', directUrl: 'postgres://a/db' }).sessionUrl).toBe(
      'postgres://a/db',
    );
    expect(db({ url: 'postgres://127.0.0.1:1/postgres', embedded: true }).sessionUrl).toBeUndefined();
  });

  onServer('on a server', () => {
    const prepared = (db: Database) =>
      db.rows<{ n: number }>(
        { name: 'prepared_count', text: `SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = '${ONE.name}'` },
        [],
      );

    it('prepares statements by name on a direct connection', async () => {
      const db = await connect({ url: database.url, embedded: false });
      expect(await db.rows(ONE, [7])).toEqual([{ n: 7 }]);
      expect(await prepared(db)).toEqual([{ n: 1 }]);
    });

    it('runs statements unnamed from the moment a named one went missing, and answers that one too', async () => {
      const db = await connect({ url: database.url, embedded: false });
      expect(await db.rows(ONE, [1])).toEqual([{ n: 1 }]);
      // What a transaction pooler does behind our back: the next transaction's server connection lacks the statement.
      await db.rows({ name: 'deallocate', text: 'DEALLOCATE ALL' }, []);
      expect(await db.rows(ONE, [2])).toEqual([{ n: 2 }]);
      expect(await prepared(db)).toEqual([{ n: 0 }]);
    });

    it('through a transaction pooler, has PostgreSQL cancel a statement the client gave up on', async () => {
      const db = await connect({ url: database.url, embedded: false, pooling: 'transaction' });
      await expect(db.rows({ name: 'sleep', text: 'SELECT pg_sleep(60) AS slept' }, [])).rejects.toThrow('Query read timeout');
      // Without the cancel the sleep would run on for a minute after its client left; waited for here
      // until it is gone, for at most half that.
      const sleeping = async () =>
        (
          await db.rows<{ n: number }>(
            { name: 'sleeping', text: `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(60) AS slept%'` },
            [],
          )
        )[0].n;
      const giveUp = Date.now() + 30_000;
      while ((await sleeping()) > 0 && Date.now() < giveUp) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await sleeping()).toBe(0);
      // Statements run unnamed: nothing is prepared on the connection.
      expect(await db.rows(ONE, [3])).toEqual([{ n: 3 }]);
      expect(await prepared(db)).toEqual([{ n: 0 }]);
    }, 45_000);
  });
});
