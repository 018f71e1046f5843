import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
import { cancelStatement } from './cancel-request';
import { DATABASE_TARGET, DatabaseTarget } from './database.options';
import { DiskSpace } from './disk-space';
import { openedPool } from './pool-keeping-driver';
import { Metrics } from '../observability/metrics';

/** One fixed parameterised SQL statement; `name` identifies it where it can be prepared once per connection. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

/**
 * How statements reach PostgreSQL:
 * - `prepared`: direct (or session pooling). Named statements: parsed and planned once per connection.
 * - `unnamed`: the embedded PostgreSQL, whose one session outlives each connection, so a name would
 *   already exist on the next one.
 * - `transaction`: a transaction pooler hands each transaction any server connection, so a name may be
 *   missing or taken there. Unnamed, and since statement_timeout cannot be a startup parameter there,
 *   a statement the client gives up on (query_timeout) is cancelled on the server by a CancelRequest.
 *   (Setting the timeout in a transaction around each statement cost a quarter of the throughput:
 *   two more round trips. See docs/scaling.md.)
 */
type Policy = 'prepared' | 'unnamed' | 'transaction';

// A named statement that is missing (26000) or already taken (42P05) on the connection it ran on: the
// connection is shared behind our back. Raised at Parse or Bind, before anything ran, so a retry is safe.
const LOST_STATEMENT = new Set(['26000', '42P05']);

/** A statement that writes: what the embedded PostgreSQL refuses while its disk is full. */
const WRITES = /^\s*(INSERT|UPDATE|DELETE|WITH)\b/i;

/**
 * The statement runner every repository uses: it runs statements on the pg pool that TypeORM opened
 * and owns (kept for us by the `driver` of `databaseOptions`) under the policy the database calls for.
 * TypeORM's own `query` builds a QueryRunner with events around every call and cannot name a statement
 * (see docs/performance.md); its repositories stay available through `dataSource` for what is not on
 * a request's path.
 */
@Injectable()
export class Database {
  private readonly logger = new Logger('Database');
  private policy: Policy;
  private readonly disk?: DiskSpace;

  constructor(
    @InjectDataSource() readonly dataSource: DataSource,
    @Inject(DATABASE_TARGET) private readonly target: DatabaseTarget,
    @Optional() private readonly metrics?: Metrics,
  ) {
    this.policy = target.embedded ? 'unnamed' : target.pooling === 'transaction' ? 'transaction' : 'prepared';
    if (target.dataDir) this.disk = new DiskSpace(target.dataDir);
    metrics?.watchPool(() => (dataSource.isInitialized ? openedPool(dataSource) : undefined));
  }

  /**
   * A URL on which a session connection can be held (for LISTEN), or undefined when notifications
   * cannot be had: pglite-socket does not pass them between connections, and behind a transaction
   * pooler a LISTEN lands on a server connection that is then handed to someone else.
   */
  get sessionUrl(): string | undefined {
    if (this.target.embedded) return undefined;
    return this.target.pooling === 'transaction' ? this.target.directUrl : this.target.url;
  }

  /** Why the database cannot take writes (the embedded one's disk is full), or undefined: for readiness. */
  diskShortage(): string | undefined {
    return this.disk?.shortage();
  }

  /** The rows `statement` returns for `values`; timed by statement name (metrics; its span is the pg instrumentation's). */
  async rows<R extends QueryResultRow>(statement: Statement, values: unknown[]): Promise<R[]> {
    if (!this.metrics?.enabled) return this.run<R>(statement, values);
    const timing = this.metrics.statement(statement.name);
    const started = performance.now();
    try {
      const rows = await this.run<R>(statement, values);
      timing.ok.observe((performance.now() - started) / 1000);
      return rows;
    } catch (error) {
      timing.error.observe((performance.now() - started) / 1000);
      throw error;
    }
  }

  private async run<R extends QueryResultRow>(statement: Statement, values: unknown[]): Promise<R[]> {
    const pool = openedPool(this.dataSource);
    if (!pool) throw new Error('Database needs a DataSource opened from databaseOptions(), whose driver keeps its pool');
    if (this.policy === 'unnamed') {
      if (this.disk && WRITES.test(statement.text)) this.disk.assertWritable();
      return (await pool.query<R>(statement.text, values)).rows;
    }
    if (this.policy === 'transaction') return this.cancellable<R>(pool, statement.text, values);
    try {
      return (await pool.query<R>(namedQuery(statement), values)).rows;
    } catch (error) {
      if (!LOST_STATEMENT.has((error as { code?: string }).code ?? '')) throw error;
      this.logger.warn(
        `Named statements do not survive on DATABASE_URL's connections: it looks like a transaction pooler. ` +
          `Running statements unnamed from now on; set DATABASE_POOLING=transaction to say so (docs/scaling.md)`,
      );
      this.policy = 'transaction';
      return this.run(statement, values);
    }
  }

  private async cancellable<R extends QueryResultRow>(pool: Pool, text: string, values: unknown[]): Promise<R[]> {
    const client: PoolClient = await pool.connect();
    // A checked-out client has no 'error' listener of the pool's: a connection lost under the statement
    // (a pooler restarting) would be an unhandled 'error' event, which ends the process. The statement's
    // own promise rejects with that error, so the request is answered 503; this listener only keeps it quiet.
    const lost = (): void => undefined;
    client.on('error', lost);
    let rows: R[];
    try {
      rows = (await client.query<R>(text, values)).rows;
    } catch (error) {
      // The client gave up while the server may still run the statement: have the server stop it too.
      if ((error as Error).message === 'Query read timeout') await cancelStatement(this.target.url, client as unknown as CancelKey);
      // As pg's own pool.query does: a connection that failed a statement is not reused.
      release(client, lost, error as Error);
      throw error;
    }
    release(client, lost);
    return rows;
  }
}

/**
 * A query config naming `statement` whose name and text are inherited, not its own: pg copies a config
 * object's own properties descriptor by descriptor before each query (cloneQueryConfig), which cost
 * about 2 % of a list (docs/performance.md); pg reads them through the prototype like its own.
 */
function namedQuery(statement: Statement): Statement {
  return Object.create(statement) as Statement;
}

/** Back to the pool, which listens for the client's errors again while it idles. */
function release(client: PoolClient, listener: () => void, error?: Error): void {
  client.removeListener('error', listener);
  client.release(error);
}

type CancelKey = Parameters<typeof cancelStatement>[1];
