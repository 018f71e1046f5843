import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ServiceProcess, createServiceDatabase, startServiceProcess } from '../support/service-process';
import { STARTUP_TIMEOUT_MS } from '../support/test-database';

/**
 * The embedded PostgreSQL's memory (measured with `node scripts/embedded-memory.js`): 831 MB peak on a
 * first start and 376 MB on later ones, before shared_buffers went to 16 MB and the first start's initdb
 * moved to a child process; about 270 and 245 MB since. The bound below has a wide margin: it catches a
 * return of initdb into the service process or of the 128 MB buffers, not noise.
 */
const PEAK_RSS_BOUND_MB = 450;

(process.env.DATABASE_URL ? describe.skip : describe)('embedded PostgreSQL memory (built service, no DATABASE_URL)', () => {
  let database: Awaited<ReturnType<typeof createServiceDatabase>>;
  let service: ServiceProcess;

  beforeAll(async () => {
    database = await createServiceDatabase({ firstStart: true });
    service = await startServiceProcess(database.env);
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
  });

  it(`creates the database in a child process: the service's peak RSS on a first start stays under ${PEAK_RSS_BOUND_MB} MB`, () => {
    const status = readFileSync(`/proc/${service.child.pid}/status`, 'utf8');
    const peakMb = Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024;
    expect(peakMb).toBeLessThan(PEAK_RSS_BOUND_MB);
  });

  it('runs with 16 MB of shared buffers', async () => {
    const { url } = JSON.parse(readFileSync(join(database.env.DATA_DIR, 'embedded-postgres.json'), 'utf8')) as { url: string };
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      expect((await client.query('SHOW shared_buffers')).rows).toEqual([{ shared_buffers: '16MB' }]);
    } finally {
      await client.end();
    }
  });
});
