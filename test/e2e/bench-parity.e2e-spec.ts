import { STARTUP_TIMEOUT_MS, TestDatabase, createTestDatabase } from '../support/test-database';

interface Server {
  baseUrl: string;
  stop(): Promise<void>;
}
interface BenchLib {
  AUTH: Record<string, string>;
  SERVICE: object;
  SAME_WORK: object;
  serviceEnv(url: string): Record<string, string>;
  startServer(spec: object): Promise<Server>;
  seed(url: string, count: number): Promise<void>;
}
/* eslint-disable @typescript-eslint/no-require-imports -- the benchmark is plain CommonJS, without types */
const lib = require('../../bench/lib') as BenchLib;
const parity = require('../../bench/parity') as { differences(a: string, b: string, auth: object): Promise<string[]> };
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * `pnpm bench` measures the service against a yardstick that must do the same observable work, and
 * stops when the two answer otherwise (bench/parity.js). This runs that check on one database: the built
 * service in production mode, then the same-work yardstick beside it.
 */
describe('the same-work yardstick of pnpm bench (e2e)', () => {
  let database: TestDatabase;
  const servers: Server[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    servers.push(await lib.startServer({ name: 'service', ...lib.SERVICE, env: lib.serviceEnv(database.url) }));
    servers.push(await lib.startServer({ name: 'same-work', ...lib.SAME_WORK, env: { DATABASE_URL: database.url } }));
    // More pets than a page, so that the listing's Link and the next page are compared too.
    await lib.seed(database.url, 45);
  }, STARTUP_TIMEOUT_MS);

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await database?.drop();
  }, STARTUP_TIMEOUT_MS);

  it('gives the service’s status, headers and body for every request of the check', async () => {
    const [service, yardstick] = servers;
    expect(await parity.differences(service.baseUrl, yardstick.baseUrl, lib.AUTH)).toEqual([]);
  });
});
