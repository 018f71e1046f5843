import { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/config';
import { migrations } from './migrations';

/** Injection token of the DatabaseTarget the app was built for. */
export const DATABASE_TARGET = Symbol('DATABASE_TARGET');

/** Bounds on every wait for the database, in milliseconds: together under the 3 s promised for a 503. */
export const DATABASE_TIMEOUTS = { connectMs: 1500, queryMs: 1200 };

export interface DatabaseTarget {
  url: string;
  /** The embedded PostgreSQL runs one session at a time, so it gets a single pooled connection. */
  embedded: boolean;
  /** `transaction`: `url` is a transaction pooler, where no session state outlives a transaction. */
  pooling?: 'session' | 'transaction';
  /** A direct connection to the same database, for what needs a session (migrations). */
  directUrl?: string;
}

/** Where the configuration points: DATABASE_URL and its pooling, else the embedded PostgreSQL at `embeddedUrl`. */
export function databaseTarget(config: AppConfig, embeddedUrl?: string): DatabaseTarget {
  if (!config.database.url) return { url: embeddedUrl!, embedded: true };
  return { url: config.database.url, embedded: false, pooling: config.database.pooling, directUrl: config.database.directUrl };
}

/**
 * A URL on which a session connection can be held (LISTEN), or undefined: pglite-socket does not pass
 * notifications between connections, and behind a transaction pooler a LISTEN lands on a server
 * connection that is then handed to someone else.
 */
export function sessionUrl(target: DatabaseTarget): string | undefined {
  if (target.embedded) return undefined;
  return target.pooling === 'transaction' ? target.directUrl : target.url;
}

/**
 * TypeORM over pg. The schema comes only from migrations (see migrate.ts), never `synchronize`.
 * `timeouts: false` is for migrations, which may rightly wait on a lock or build an index for long.
 * The entities are the app's to list (see entities.ts).
 */
export function databaseOptions(target: DatabaseTarget, poolSize: number, timeouts = true): DataSourceOptions {
  return {
    type: 'postgres',
    url: target.url,
    migrations,
    migrationsRun: false,
    synchronize: false,
    installExtensions: false,
    logging: false,
    poolSize: target.embedded ? 1 : poolSize,
    // pg's connectionTimeoutMillis: also bounds the wait for a pooled connection. The embedded
    // PostgreSQL lives in this process behind one connection, so a request may queue longer for it.
    connectTimeoutMS: target.embedded ? 10_000 : DATABASE_TIMEOUTS.connectMs,
    extra: {
      // pg gives up on an answer after query_timeout (a database that went silent).
      ...(timeouts && { query_timeout: DATABASE_TIMEOUTS.queryMs }),
      // PostgreSQL's own bound, sent as a startup parameter, which PgBouncer refuses ("unsupported
      // startup parameter"): behind a transaction pooler BoundedQueries sets it per transaction.
      ...(timeouts && target.pooling !== 'transaction' && { statement_timeout: DATABASE_TIMEOUTS.queryMs }),
      // Notices a peer that vanished without closing the connection.
      keepAlive: true,
    },
  };
}
