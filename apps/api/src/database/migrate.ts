import { DataSource, MigrationExecutor } from 'typeorm';
import { ConfigError } from '../config/config';
import { DatabaseTarget, databaseOptions } from './database.options';

/** In one transaction under a transaction-scoped advisory lock (a pooler keeps no session lock): instances starting together migrate once. */
export async function migrate(target: DatabaseTarget): Promise<void> {
  const dataSource = new DataSource(databaseOptions({ ...target, url: target.directUrl ?? target.url }, 1, false));
  await dataSource.initialize().catch((error: Error) => {
    throw explainConnectError(error);
  });
  try {
    await dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('petstore migrations'))`);
      const executor = new MigrationExecutor(dataSource, manager.queryRunner);
      executor.transaction = 'all';
      await executor.executePendingMigrations();
    });
  } finally {
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
