import { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/config';
import { ApiKeyEntity } from '../auth/api-key.entity';
import { PetEntity } from '../pets/pet.entity';
import { migrations } from './migrations';

/** Injection token of the DatabaseTarget the app was built for; only this folder reads it. */
export const DATABASE_TARGET = Symbol('DATABASE_TARGET');

/** Bounds on every wait for the database, in milliseconds. */
export const DATABASE_TIMEOUTS = { connectMs: 1500, queryMs: 1200 };

export interface DatabaseTarget {
  url: string;
  /** The embedded PostgreSQL runs one session at a time, so it gets a single pooled connection. */
  embedded: boolean;
  /** `transaction`: `url` is a transaction pooler, where no session state outlives a transaction. */
  pooling?: 'session' | 'transaction';
  /** A direct connection to the same database, for what needs a session (LISTEN, migrations). */
  directUrl?: string;
  /** The embedded PostgreSQL's folder (DATA_DIR), whose free space is watched. */
  dataDir?: string;
}

/** Where the configuration points: DATABASE_URL and its pooling, else the embedded PostgreSQL at `embeddedUrl`. */
export function databaseTarget(config: AppConfig, embeddedUrl?: string): DatabaseTarget {
  if (!config.databaseUrl) return { url: embeddedUrl!, embedded: true, dataDir: config.dataDir.startsWith('memory://') ? undefined : config.dataDir };
  return { url: config.databaseUrl, embedded: false, pooling: config.databasePooling, directUrl: config.databaseDirectUrl };
}

/**
 * TypeORM over pg. The schema comes only from migrations (see migrate.ts), never `synchronize`.
 * `timeouts: false` is for migrations, which may rightly wait on a lock or build an index for long.
 */
export function databaseOptions(target: DatabaseTarget, poolSize: number, timeouts = true): DataSourceOptions {
  const transactionPooler = target.pooling === 'transaction';
  return {
    type: 'postgres',
    url: target.url,
    entities: [PetEntity, ApiKeyEntity],
    migrations,
    migrationsRun: false,
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
      ...(timeouts && { query_timeout: DATABASE_TIMEOUTS.queryMs }),
      // A startup parameter, which PgBouncer refuses ("unsupported startup parameter"); through a
      // transaction pooler the Database sets it per transaction instead.
      ...(timeouts && !transactionPooler && { statement_timeout: DATABASE_TIMEOUTS.queryMs }),
      // Notices a peer that vanished without closing the connection.
      keepAlive: true,
    },
  };
}
