// The subpath: the key tool uses this class without loading NestJS.
import { isDatabaseUnavailable } from '@petstore/http-errors/database-errors';
import type { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import type { Metrics } from '../observability/metrics';
import { DATABASE_TIMEOUTS, DatabaseTarget } from './database.options';

const SET_TIMEOUT = `SET LOCAL statement_timeout = ${DATABASE_TIMEOUTS.queryMs}`;

/** TypeORM's DataSource, each call named and timed; behind a transaction pooler, in a transaction that sets statement_timeout.
 * No decorators: the key tool builds it without loading Nest. */
export class BoundedQueries {
  constructor(
    readonly dataSource: DataSource,
    private readonly target: DatabaseTarget,
    private readonly metrics?: Metrics,
  ) {}

  query<T>(name: string, sql: string, parameters: unknown[] = []): Promise<T> {
    return this.manager(name, (manager) => manager.query<T>(sql, parameters));
  }

  manager<T>(name: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.target.pooling === 'transaction' ? this.transaction(name, work) : this.timed(name, () => this.onConnection(work, false));
  }

  transaction<T>(name: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.timed(name, () =>
      this.onConnection(async (manager) => {
        if (this.target.pooling === 'transaction') await manager.query(SET_TIMEOUT);
        return work(manager);
      }, true),
    );
  }

  /**
   * `work` on one pooled connection (a QueryRunner's). A connection that timed out or broke is closed, not handed to the
   * next request with a statement still hanging or a transaction open on it; closing it ends its transaction, so no
   * ROLLBACK is waited for (on a silent database that wait came on top of the statement's, past the 3 s of a 503).
   */
  private async onConnection<T>(work: (manager: EntityManager) => Promise<T>, transaction: boolean): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    let client: Client | undefined;
    try {
      client = (await runner.connect()) as Client;
      if (transaction) await runner.startTransaction();
      const result = await work(runner.manager);
      if (transaction) await runner.commitTransaction();
      return result;
    } catch (error) {
      if (client && isDatabaseUnavailable(error)) void client.end().catch(() => undefined);
      else if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  private async timed<T>(name: string, run: () => Promise<T>): Promise<T> {
    const end = this.metrics?.statement(name);
    try {
      const result = await run();
      end?.('ok');
      return result;
    } catch (error) {
      // SQLSTATE class 23: a constraint refused the row (an Idempotency-Key already taken), not a database fault.
      end?.(String((error as { code?: unknown }).code).startsWith('23') ? 'conflict' : 'error');
      throw error;
    }
  }
}
