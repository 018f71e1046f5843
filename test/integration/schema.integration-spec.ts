import { useDataSource } from '../support/data-source';

/** The entities are the tables' truth: on a schema built by the migrations, TypeORM finds nothing to change. */
describe('entities and migrations', () => {
  const suite = useDataSource({ timeouts: false });

  it('agree: the schema builder has no pending query for pets, api_keys or idempotency_keys', async () => {
    const pending = await suite.dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });
});
