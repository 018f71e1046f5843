import { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/config';
import { migrations } from './migrations';

/**
 * Bounds on every wait for the database, in milliseconds, together under the 3 s promised for a 503: a connection
 * (pg-pool's `connectionTimeoutMillis`: the wait in the pool's queue and the connecting together, so the requests queued
 * behind a silent database do not each wait for attempts of their own), then one statement.
 */
export const DATABASE_TIMEOUTS = { connectMs: 1500, queryMs: 1200 };
/** PGlite serves one session at a time: a request queued behind slow ones is not an outage. */
const EMBEDDED_POOL_WAIT_MS = 10_000;

export interface DatabaseTarget {
  url: string;
  embedded: boolean;
  pooling?: 'session' | 'transaction';
  /** A direct connection to the same database, for what needs a session (migrations). */
  directUrl?: string;
}

export function databaseTarget(config: AppConfig, embeddedUrl?: string): DatabaseTarget {
  if (!config.database.url) return { url: embeddedUrl!, embedded: true };
  return { url: config.database.url, embedded: false, pooling: config.database.pooling, directUrl: config.database.directUrl };
}

/** TypeORM over pg, the schema from migrations alone; `timeouts: false` for migrations, which may rightly wait long. */
export function databaseOptions(target: DatabaseTarget, poolSize: number, timeouts = true): DataSourceOptions {
  return {
    type: 'postgres',
    url: target.url,
    migrations,
    installExtensions: false,
    poolSize: target.embedded ? 1 : poolSize, // PGlite runs one session at a time
    connectTimeoutMS: target.embedded ? EMBEDDED_POOL_WAIT_MS : DATABASE_TIMEOUTS.connectMs,
    extra: {
      // pg gives up on an answer after query_timeout (a database that went silent).
      ...(timeouts && { query_timeout: DATABASE_TIMEOUTS.queryMs }),
      // PostgreSQL's own bound, a startup parameter PgBouncer refuses: behind one BoundedQueries sets it per transaction.
      ...(timeouts && target.pooling !== 'transaction' && { statement_timeout: DATABASE_TIMEOUTS.queryMs }),
      // Notices a peer that vanished without closing the connection.
      keepAlive: true,
    },
  };
}
