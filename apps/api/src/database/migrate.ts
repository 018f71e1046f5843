import { DataSource, MigrationExecutor } from 'typeorm';
import { ConfigError } from '../config/config';
import { DatabaseTarget, databaseOptions } from './database.options';

/** In one transaction under a transaction-scoped advisory lock (a pooler keeps no session lock): instances starting together migrate once. */
export async function migrate(target: DatabaseTarget): Promise<void> {
  const dataSource = new DataSource(databaseOptions({ ...target, url: target.directUrl ?? target.url }, 1, false));
  await dataSource.initialize().catch((error: Error) => {
    throw explainConnectError(error);
  });
  const runner = dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    await runner.query(`SELECT pg_advisory_xact_lock(hashtext('petstore migrations'))`);
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'all';
    await executor.executePendingMigrations();
    await runner.commitTransaction();
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}

/** PgBouncer refuses the startup parameters a direct connection sends: say which setting fixes it. */
export function explainConnectError(error: Error): Error {
  if (!/unsupported startup parameter/.test(error.message)) return error;
  return new ConfigError([
    `DATABASE_URL answered "${error.message}": it is a connection pooler. Set DATABASE_POOLING=transaction (see docs/scaling.md)`,
  ]);
}
