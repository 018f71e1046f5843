import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Metrics } from '../observability/metrics';
import { DATABASE_TARGET, DATABASE_TIMEOUTS, DatabaseTarget } from './database.options';

const SET_TIMEOUT = `SET LOCAL statement_timeout = ${DATABASE_TIMEOUTS.queryMs}`;

/** TypeORM's DataSource, each call named and timed; behind a transaction pooler each runs in a transaction that sets statement_timeout. */
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

  query<T>(name: string, sql: string, parameters: unknown[] = []): Promise<T> {
    return this.timed(name, () =>
      this.pooled ? this.transaction(undefined, (manager) => manager.query<T>(sql, parameters)) : this.dataSource.query<T>(sql, parameters),
    );
  }

  manager<T>(name: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.pooled ? this.transaction(name, work) : this.timed(name, () => work(this.dataSource.manager));
  }

  transaction<T>(name: string | undefined, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const run = () =>
      this.dataSource.transaction(async (manager) => {
        if (this.pooled) await manager.query(SET_TIMEOUT);
        return work(manager);
      });
    return name ? this.timed(name, run) : run();
  }

  private async timed<T>(name: string, run: () => Promise<T>): Promise<T> {
    const end = this.metrics?.statement(name);
    try {
      const result = await run();
      end?.('ok');
      return result;
    } catch (error) {
      end?.('error');
      throw error;
    }
  }
}
