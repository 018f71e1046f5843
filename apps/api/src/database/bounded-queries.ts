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
    return this.target.pooling === 'transaction' ? this.transaction(name, work) : this.timed(name, () => work(this.dataSource.manager));
  }

  transaction<T>(name: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.timed(name, () =>
      this.dataSource.transaction(async (manager) => {
        if (this.target.pooling === 'transaction') await manager.query(SET_TIMEOUT);
        return work(manager);
      }),
    );
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
