import pg from 'pg';
import type { Pool, PoolConfig } from 'pg';
import type { DataSource } from 'typeorm';

/** The pg module with a Pool that remembers its last instance. */
export type PoolKeepingDriver = typeof pg & { pool?: Pool };

/**
 * The pg module as handed to TypeORM through its `driver` option (which "defaults to require('pg')"),
 * except that it keeps the pool TypeORM opens with it. The statement runner runs on that pool: one
 * pool for the app, sized and configured by the DataSource options alone, and reached without
 * TypeORM's driver internals.
 */
export function poolKeepingDriver(): PoolKeepingDriver {
  const driver: PoolKeepingDriver = { ...pg };
  driver.Pool = class KeptPool extends pg.Pool {
    constructor(config?: PoolConfig) {
      super(config);
      driver.pool = this;
    }
  };
  return driver;
}

/** The pool a DataSource built from `databaseOptions` opened, or undefined before it opened one. */
export function openedPool(dataSource: DataSource): Pool | undefined {
  return (dataSource.options as { driver?: PoolKeepingDriver } | undefined)?.driver?.pool;
}
