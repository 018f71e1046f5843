import { DataSource } from 'typeorm';
import { STARTUP_TIMEOUT_MS, TestDatabase, createTestDatabase } from './test-database';
import type { DatabaseTarget } from '../../apps/api/src/database/database.options';
import { databaseOptions } from '../../apps/api/src/database/database.options';
import { migrate } from '../../apps/api/src/database/migrate';
import { ENTITIES } from '../../apps/api/src/entities';

export interface SuiteDataSource {
  database: TestDatabase;
  target: DatabaseTarget;
  dataSource: DataSource;
}

/**
 * For a suite that talks to PostgreSQL through TypeORM: beforeAll gives it a database of its own, its
 * schema built by the migrations (or by TypeORM from the entities, `build: 'entities'`), and a DataSource
 * of `poolSize` connections; afterAll closes and drops both. Read the fields inside the tests.
 */
export function useDataSource(options: { poolSize?: number; timeouts?: boolean; build?: 'migrations' | 'entities' } = {}): SuiteDataSource {
  const { poolSize = 1, timeouts = true, build = 'migrations' } = options;
  const suite = {} as SuiteDataSource;
  beforeAll(async () => {
    suite.database = await createTestDatabase();
    suite.target = { url: suite.database.url, embedded: suite.database.embedded };
    if (build === 'migrations') await migrate(suite.target);
    suite.dataSource = await new DataSource({
      ...databaseOptions(suite.target, poolSize, timeouts),
      entities: ENTITIES,
      synchronize: build === 'entities',
    }).initialize();
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await suite.dataSource?.destroy();
    await suite.database?.drop();
  }, STARTUP_TIMEOUT_MS);
  return suite;
}
