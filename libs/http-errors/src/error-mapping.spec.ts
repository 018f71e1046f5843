import { isDatabaseUnavailable, mapError } from './error-mapping';

/** The errors pg, pg-pool and TypeORM raise when the database is down or silent (seen in the fault suite). */
const pgError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('isDatabaseUnavailable', () => {
  it.each([
    ['connection refused', pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['connection reset', pgError('read ECONNRESET', 'ECONNRESET')],
    ['pool wait timeout', pgError('timeout exceeded when trying to connect')],
    ['connect timeout', pgError('Connection terminated due to connection timeout')],
    ['connection lost', pgError('Connection terminated unexpectedly')],
    ['query timeout', pgError('Query read timeout')],
    ['statement timeout', pgError('canceling statement due to statement timeout', '57014')],
    ['admin shutdown', pgError('terminating connection due to administrator command', '57P01')],
    ['too many connections', pgError('sorry, too many clients already', '53300')],
    ['closed client', pgError('Client was closed and is not queryable')],
    ['wrapped by TypeORM', Object.assign(new Error('Query failed'), { driverError: pgError('Query read timeout') })],
  ])('recognises %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(mapError(error, { method: 'GET', url: '/v1/pets' }).body).toEqual({
      code: 'service_unavailable',
      message: 'The service cannot reach its database; try again shortly',
      status: 503,
    });
  });

  it.each([
    ['a constraint violation', pgError('duplicate key value violates unique constraint', '23505')],
    ['a syntax error', pgError('syntax error at or near "x"', '42601')],
    ['a plain bug', new TypeError('x is undefined')],
  ])('leaves %s alone', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
