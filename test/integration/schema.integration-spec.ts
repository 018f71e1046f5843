import { DataSource } from 'typeorm';
import { STARTUP_TIMEOUT_MS, TestDatabase, createTestDatabase } from '../support/test-database';
import { databaseOptions } from '../../apps/api/src/database/database.options';
import { migrate } from '../../apps/api/src/database/migrate';

/** The entities are the tables' truth: on a schema built by the migrations, TypeORM finds nothing to change. */
describe('entities and migrations', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    const target = { url: database.url, embedded: database.embedded };
    await migrate(target);
    dataSource = await new DataSource(databaseOptions(target, 1, false)).initialize();
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  }, STARTUP_TIMEOUT_MS);

  it('agree: the schema builder has no pending query for pets or api_keys', async () => {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });
});
