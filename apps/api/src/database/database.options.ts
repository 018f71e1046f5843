import { DataSourceOptions } from 'typeorm';
import { ApiKeyEntity } from '../keys/api-key.entity';
import { PetEntity } from '../pets/pet.entity';
import { migrations } from './migrations';

/** Injection token of the DatabaseTarget the app was built for. */
export const DATABASE_TARGET = Symbol('DATABASE_TARGET');

export interface DatabaseTarget {
  url: string;
  /** The embedded PostgreSQL runs one session at a time, so it gets a single pooled connection. */
  embedded: boolean;
}

/** TypeORM over pg. The schema comes only from migrations, applied at start; never `synchronize`. */
export function databaseOptions(target: DatabaseTarget, poolSize: number): DataSourceOptions {
  return {
    type: 'postgres',
    url: target.url,
    entities: [PetEntity, ApiKeyEntity],
    migrations,
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    synchronize: false,
    installExtensions: false,
    logging: false,
    poolSize: target.embedded ? 1 : poolSize,
    connectTimeoutMS: 3000,
    extra: {
      // A request must never hang on a database that stopped answering.
      query_timeout: 3000,
      statement_timeout: 3000,
    },
  };
}
