import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ConfigError, loadConfig } from '../config/config';
import { BoundedQueries } from '../database/bounded-queries';
import { DatabaseUnusableError } from '../database/database-check';
import { migrate } from '../database/migrate';
import { databaseOptions, databaseTarget } from '../database/database.options';
import { runningEmbeddedPostgres } from '../database/embedded-lock';
import { ENTITIES } from '../entities';
import { ApiKeyToolError, ApiKeysRepository } from '../auth/api-keys.repository';

const NO_SERVER_IN_PRODUCTION =
  'DATABASE_URL is required in production (NODE_ENV=production), as it is for the service: set it to the PostgreSQL server the service uses';

/** The key tool's database side, loaded once the command line is known to be well formed: bad usage costs no TypeORM. */
export async function withRepository(run: (repository: ApiKeysRepository) => Promise<void>): Promise<void> {
  const config = loadConfig(process.env, process.cwd(), 'tool');
  // As the service refuses it: a production key kept in an embedded database made here would reach no service.
  if (config.nodeEnv === 'production' && !config.database.url) throw new ApiKeyToolError(NO_SERVER_IN_PRODUCTION);
  const running = config.database.url ? undefined : await runningEmbeddedPostgres(config.database.dataDir);
  const embedded =
    config.database.url || running
      ? undefined
      : await (await import('../database/embedded-postgres.js')).startEmbeddedPostgres(config.database.dataDir);
  const target = databaseTarget(config, running?.url ?? embedded?.url);
  const dataSource = new DataSource({ ...databaseOptions(target, 1), entities: ENTITIES });
  try {
    await migrate(target)
      .then(() => dataSource.initialize())
      .catch((error: Error) => {
        if (error instanceof ConfigError) throw error;
        const where = running ? ` served by process ${running.pid} at ${running.url}` : '';
        throw new ApiKeyToolError(`Cannot open the database${where}: ${error.message}`);
      });
    await run(new ApiKeysRepository(new BoundedQueries(dataSource, target)));
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await embedded?.stop();
  }
}

/** A refusal worded for the person who ran the tool (settings, the database, the key): its message is said without a stack. */
export const isWorded = (error: unknown): error is Error =>
  error instanceof ApiKeyToolError || error instanceof ConfigError || error instanceof DatabaseUnusableError;
