import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DATABASE_TARGET, DATABASE_TIMEOUTS, DatabaseTarget } from './database.options';

const SET_TIMEOUT = `SET LOCAL statement_timeout = ${DATABASE_TIMEOUTS.queryMs}`;

/**
 * TypeORM's DataSource with every statement bounded by PostgreSQL's statement_timeout. On a direct
 * connection a startup parameter bounds them all (databaseOptions), so this adds nothing. Behind a
 * transaction pooler no startup parameter passes and no session state outlives a transaction: there
 * each statement runs in a transaction that sets the timeout (SET LOCAL), two more round trips, so
 * that PostgreSQL ends a statement the client gave up on instead of letting it hold locks.
 */
@Injectable()
export class BoundedQueries {
  private readonly pooled: boolean;

  constructor(
    @InjectDataSource() readonly dataSource: DataSource,
    @Inject(DATABASE_TARGET) target: DatabaseTarget,
  ) {
    this.pooled = target.pooling === 'transaction';
  }

  /** The rows of one hand-written statement (DataSource.query, or a QueryRunner's behind a transaction pooler). */
  async query<T>(sql: string, parameters: unknown[] = []): Promise<T> {
    if (!this.pooled) return this.dataSource.query<T>(sql, parameters);
    const runner = this.dataSource.createQueryRunner();
    try {
      // One round trip for both (the simple protocol takes several statements), one for the statement, one to commit.
      await runner.query(`BEGIN; ${SET_TIMEOUT}`);
      const rows = (await runner.query(sql, parameters)) as T;
      await runner.query('COMMIT');
      return rows;
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  /** `work` on the DataSource's manager, in a bounded transaction where one is needed. */
  manager<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.pooled ? this.transaction(work) : work(this.dataSource.manager);
  }

  /** `work` in one transaction (DataSource.transaction), committed when it resolves. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      if (this.pooled) await manager.query(SET_TIMEOUT);
      return work(manager);
    });
  }
}
