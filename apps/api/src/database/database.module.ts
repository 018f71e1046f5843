import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { ConfigError } from '../config/config';
import { Metrics } from '../observability/metrics';
import { BoundedQueries } from './bounded-queries';
import { DatabaseTarget, databaseOptions } from './database.options';
import { explainConnectError, migrate } from './migrate';

/** The app's database, migrated before the pool opens, reached through `@InjectDataSource()` or BoundedQueries. */
@Module({})
export class DatabaseModule {
  static forRoot(target: DatabaseTarget, poolSize: number, entities: DataSourceOptions['entities']): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...databaseOptions(target, poolSize),
            entities,
            retryAttempts: 2,
            retryDelay: 1000,
            toRetry: (error) => !(error instanceof ConfigError),
          }),
          dataSourceFactory: async (options) => {
            await migrate(target);
            return new DataSource(options!).initialize().catch((error: Error) => {
              throw explainConnectError(error);
            });
          },
        }),
      ],
      providers: [
        {
          provide: BoundedQueries,
          useFactory: (dataSource: DataSource, metrics?: Metrics) => new BoundedQueries(dataSource, target, metrics),
          inject: [DataSource, { token: Metrics, optional: true }],
        },
      ],
      exports: [BoundedQueries],
    };
  }
}
