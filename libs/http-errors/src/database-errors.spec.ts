import { isDatabaseUnavailable } from './database-errors';
import { mapError } from './error-mapping';

const GET_PETS = { method: 'GET', url: '/v1/pets?limit=5' };
const UNAVAILABLE = { code: 'service_unavailable', message: 'The service cannot reach its database; try again shortly', status: 503 };

/* What counts as the database being unavailable, and the 503 it is answered with; every other mapping is error-mapping.spec.ts. */

/** An error shaped as pg raises it: a message and a SQLSTATE or network code. */
const driverError = (code: string, message = 'driver failure') => Object.assign(new Error(message), { code });
/** An error shaped as TypeORM wraps a driver error (QueryFailedError keeps it as driverError). */
const typeormError = (driver: unknown) =>
  Object.assign(new Error('Query failed: SELECT secret FROM pets'), { name: 'QueryFailedError', driverError: driver });

describe('mapError', () => {
  describe('database unavailable: 503', () => {
    it('maps a refused connection', () => {
      expect(mapError(driverError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), GET_PETS)).toEqual({
        body: UNAVAILABLE,
        headers: {},
        unexpected: false,
      });
    });

    it('maps a driver error wrapped by TypeORM, without leaking the SQL', () => {
      const mapped = mapError(typeormError(driverError('57P01', 'terminating connection due to administrator command')), GET_PETS);
      expect(mapped).toEqual({ body: UNAVAILABLE, headers: {}, unexpected: false });
    });
  });
});

describe('isDatabaseUnavailable', () => {
  it.each([
    ['ECONNREFUSED', driverError('ECONNREFUSED')],
    ['ECONNRESET', driverError('ECONNRESET')],
    ['ETIMEDOUT', driverError('ETIMEDOUT')],
    ['ENOTFOUND', driverError('ENOTFOUND')],
    ['SQLSTATE class 08 (connection exception)', driverError('08006')],
    ['admin shutdown 57P01', driverError('57P01')],
    ['crash shutdown 57P02', driverError('57P02')],
    ['cannot connect now 57P03', driverError('57P03')],
    ['too many connections 53300', driverError('53300')],
    ['statement timeout 57014', driverError('57014')],
    ['a database that refuses connections 55000', driverError('55000', 'database "petstore" is not currently accepting connections')],
    ['TypeORM wrapping a refused database 55000', typeormError(driverError('55000', 'database "petstore" is not currently accepting connections'))],
    ['a database that does not exist 3D000', driverError('3D000', 'database "petstore" does not exist')],
    ['a role that may not connect 28000', driverError('28000', 'role "app" is not permitted to log in')],
    ['a refused password 28P01', driverError('28P01', 'password authentication failed for user "app"')],
    ['the pg pool timeout message', new Error('timeout exceeded when trying to connect')],
    ['the pg query timeout message', new Error('Query read timeout')],
    ['a terminated connection', new Error('Connection terminated unexpectedly')],
    ['TypeORM wrapping a network error', typeormError(driverError('ECONNREFUSED'))],
    ['TypeORM wrapping a 08 error', typeormError(driverError('08001'))],
    ['an error whose cause is a network error', new Error('outer', { cause: driverError('ECONNRESET') })],
    ['a cause two levels down', new Error('outer', { cause: new Error('middle', { cause: driverError('ETIMEDOUT') }) })],
  ])('is true for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', driverError('23505')],
    ['a check violation wrapped by TypeORM', typeormError(driverError('23514'))],
    ['a syntax error', driverError('42601')],
    [
      'another 55000 (object not in prerequisite state)',
      driverError('55000', 'currval of sequence "pets_id_seq" is not yet defined in this session'),
    ],
    ['a plain Error', new Error('boom')],
    ['a Fastify error', Object.assign(new Error('x'), { code: 'FST_ERR_BAD_URL' })],
    ['null', null],
    ['a string', 'ECONNREFUSED'],
    ['a number', 8],
  ])('is false for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('stops following a cause chain that loops', () => {
    const a: { cause?: unknown } = {};
    const b = { cause: a };
    a.cause = b;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});

/** The errors pg, pg-pool and TypeORM raise when the database is down or silent (seen in the fault suite). */
const pgError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('isDatabaseUnavailable: what pg, pg-pool and TypeORM raise in the fault suite', () => {
  it.each([
    ['connection refused', pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['connection reset', pgError('read ECONNRESET', 'ECONNRESET')],
    ['pool wait timeout', pgError('timeout exceeded when trying to connect')],
    ['connect timeout', pgError('Connection terminated due to connection timeout')],
    // pg's connect timeout, each client's connectionTimeoutMillis (a database silent while the pool connects).
    ['the client connect timeout', pgError('timeout expired')],
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
