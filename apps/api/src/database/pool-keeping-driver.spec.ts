import pg from 'pg';
import type { DataSource } from 'typeorm';
import { openedPool, poolKeepingDriver } from './pool-keeping-driver';

describe('poolKeepingDriver', () => {
  it('is the pg module whose Pool is kept where openedPool finds it', async () => {
    const driver = poolKeepingDriver();
    expect(driver.Client).toBe(pg.Client);
    expect(driver.types).toBe(pg.types);
    const dataSource = { options: { type: 'postgres', driver } } as unknown as DataSource;
    expect(openedPool(dataSource)).toBeUndefined();
    const pool = new driver.Pool({ max: 3 });
    expect(pool).toBeInstanceOf(pg.Pool);
    expect(openedPool(dataSource)).toBe(pool);
    await pool.end();
  });

  it('keeps one pool per driver: two DataSources never share theirs', () => {
    const [first, second] = [poolKeepingDriver(), poolKeepingDriver()];
    const pool = new first.Pool();
    expect(first.pool).toBe(pool);
    expect(second.pool).toBeUndefined();
    return pool.end();
  });

  it('finds no pool in a DataSource built without it', () => {
    expect(openedPool({ options: { type: 'postgres' } } as unknown as DataSource)).toBeUndefined();
  });
});
