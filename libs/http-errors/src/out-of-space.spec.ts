import { isOutOfSpace } from './database-errors';
import { mapError } from './error-mapping';

const request = { method: 'POST', url: '/v1/pets' };

describe('out of disk space: 503 that says so', () => {
  it.each([
    [
      'PostgreSQL disk_full (53100) from pg',
      Object.assign(new Error('could not write to file "pg_wal/xlogtemp.42": No space left on device'), { code: '53100' }),
    ],
    ['ENOSPC from the file system', Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })],
    [
      '53100 wrapped by TypeORM (as its QueryFailedError keeps it)',
      Object.assign(new Error('Query failed'), {
        name: 'QueryFailedError',
        driverError: Object.assign(new Error('could not extend file'), { code: '53100' }),
      }),
    ],
  ])('maps %s', (_case, error) => {
    expect(isOutOfSpace(error)).toBe(true);
    expect(mapError(error, request)).toEqual({
      body: { code: 'service_unavailable', message: "The database's disk is full; try again later", status: 503 },
      headers: {},
      unexpected: false,
    });
  });

  it('leaves other resource errors alone (53200 out of memory is ours to log)', () => {
    const error = Object.assign(new Error('out of memory'), { code: '53200' });
    expect(isOutOfSpace(error)).toBe(false);
    expect(mapError(error, request).body.code).toBe('internal_error');
  });
});
