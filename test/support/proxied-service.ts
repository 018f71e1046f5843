import { ServiceProcess, startServiceProcess } from './service-process';
import { TcpProxy } from './tcp-proxy';
import { STARTUP_TIMEOUT_MS, TestDatabase, createTestDatabase } from './test-database';

export interface ProxiedService {
  database: TestDatabase;
  /** Between the service and PostgreSQL: cut or silence it to play a database or pooler fault. */
  proxy: TcpProxy;
  service: ServiceProcess;
}

/**
 * For beforeAll/afterAll: the built service on a database of the suite's own, reached through a TCP
 * proxy the suite controls; afterAll stops all three. Read the fields inside the tests.
 */
export function useServiceBehindProxy(env: Record<string, string>): ProxiedService {
  const suite = {} as ProxiedService;
  beforeAll(async () => {
    suite.database = await createTestDatabase();
    const target = new URL(suite.database.url);
    suite.proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    target.host = `127.0.0.1:${suite.proxy.port}`;
    suite.service = await startServiceProcess({ DATABASE_URL: target.toString(), ...env });
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await suite.service?.stop();
    await suite.proxy?.close();
    await suite.database?.drop();
  }, STARTUP_TIMEOUT_MS);
  return suite;
}
