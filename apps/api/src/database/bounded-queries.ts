import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Metrics } from '../observability/metrics';
import { DATABASE_TARGET, DATABASE_TIMEOUTS, DatabaseTarget } from './database.options';

const SET_TIMEOUT = `SET LOCAL statement_timeout = ${DATABASE_TIMEOUTS.queryMs}`;

/**
 * TypeORM's DataSource, each call named and timed (petstore_db_statement_duration_seconds). On a direct
 * connection a startup parameter bounds every statement (databaseOptions); behind a transaction pooler,
 * where no session state outlives a transaction, each runs in a transaction that sets statement_timeout.
 */
@Injectable()
export class BoundedQueries {
  private readonly pooled: boolean;

  constructor(
    // By type, as TypeOrmModule provides it: @nestjs/typeorm is not loaded by the key tool (0.2 s of CPU at its start).
    readonly dataSource: DataSource,
    @Inject(DATABASE_TARGET) target: DatabaseTarget,
    @Optional() private readonly metrics?: Metrics,
  ) {
    this.pooled = target.pooling === 'transaction';
  }

  /** The rows of the hand-written statement `name`. */
  query<T>(name: string, sql: string, parameters: unknown[] = []): Promise<T> {
    return this.timed(name, () =>
      this.pooled ? this.transaction(undefined, (manager) => manager.query<T>(sql, parameters)) : this.dataSource.query<T>(sql, parameters),
    );
  }

  /** `work` on the DataSource's manager, in a bounded transaction where one is needed. */
  manager<T>(name: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.pooled ? this.transaction(name, work) : this.timed(name, () => work(this.dataSource.manager));
  }

  /** `work` in one transaction (DataSource.transaction), committed when it resolves; timed when named. */
  transaction<T>(name: string | undefined, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const run = () =>
      this.dataSource.transaction(async (manager) => {
        if (this.pooled) await manager.query(SET_TIMEOUT);
        return work(manager);
      });
    return name ? this.timed(name, run) : run();
  }

  private async timed<T>(name: string, run: () => Promise<T>): Promise<T> {
    const timing = this.metrics?.statement(name);
    const start = performance.now();
    try {
      const result = await run();
      timing?.ok.observe((performance.now() - start) / 1000);
      return result;
    } catch (error) {
      timing?.error.observe((performance.now() - start) / 1000);
      throw error;
    }
  }
}
