import { Client, ClientConfig } from 'pg';
import { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/config';
import { migrations } from './migrations';

/** Bounds on every wait for the database, in milliseconds: together under the 3 s promised for a 503. */
export const DATABASE_TIMEOUTS = { connectMs: 1500, queryMs: 1200 };
/** How long a request may queue for a pooled connection: a busy pool is not an unreachable database. */
const POOL_WAIT_MS = 10_000;

/** pg's Client, each connection attempt bounded on its own (pg-pool's `Client` option), not by the pool's wait. */
class BoundedClient extends Client {
  constructor(config: ClientConfig) {
    super({ ...config, connectionTimeoutMillis: DATABASE_TIMEOUTS.connectMs });
  }
}

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
    // pg-pool's connectionTimeoutMillis bounds the wait for a pooled connection; BoundedClient bounds connecting.
    connectTimeoutMS: POOL_WAIT_MS,
    extra: {
      ...(!target.embedded && { Client: BoundedClient }),
      // pg gives up on an answer after query_timeout (a database that went silent).
      ...(timeouts && { query_timeout: DATABASE_TIMEOUTS.queryMs }),
      // PostgreSQL's own bound, a startup parameter PgBouncer refuses: behind one BoundedQueries sets it per transaction.
      ...(timeouts && target.pooling !== 'transaction' && { statement_timeout: DATABASE_TIMEOUTS.queryMs }),
      // Notices a peer that vanished without closing the connection.
      keepAlive: true,
    },
  };
}
