import { DataSourceOptions } from 'typeorm';
import { ApiKeyEntity } from '../keys/api-key.entity';
import { PetEntity } from '../pets/pet.entity';
import { migrations } from './migrations';

/** Injection token of the DatabaseTarget the app was built for. */
export const DATABASE_TARGET = Symbol('DATABASE_TARGET');

/** Bounds on every wait for the database, in milliseconds. */
export const DATABASE_TIMEOUTS = { connectMs: 1500, queryMs: 1200 };

export interface DatabaseTarget {
  url: string;
  /** The embedded PostgreSQL runs one session at a time, so it gets a single pooled connection. */
  embedded: boolean;
}

/** TypeORM over pg. The schema comes only from migrations, applied at start; never `synchronize`. */
export function databaseOptions(target: DatabaseTarget, poolSize: number): DataSourceOptions {
  return {
    type: 'postgres',
    url: target.url,
    entities: [PetEntity, ApiKeyEntity],
    migrations,
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    synchronize: false,
    installExtensions: false,
    logging: false,
    poolSize: target.embedded ? 1 : poolSize,
    // A request must never hang on a database that stopped answering: waiting for a connection (new or
    // from the pool) and then for one answer together stay under the 3 s promised for a 503.
    // The embedded PostgreSQL lives in this process (it cannot be unreachable) behind one connection,
    // so a request may queue for it longer under load.
    connectTimeoutMS: target.embedded ? 10_000 : DATABASE_TIMEOUTS.connectMs,
    extra: {
      query_timeout: DATABASE_TIMEOUTS.queryMs,
      statement_timeout: DATABASE_TIMEOUTS.queryMs,
      // Notices a peer that vanished without closing the connection.
      keepAlive: true,
    },
  };
}
