import { Client } from 'pg';
import { sleep } from '../support/load';
import { useServiceBehindProxy } from '../support/proxied-service';
import { AUTH } from '../support/test-key';

// The proxy sits between the service and a PostgreSQL server; the embedded database has no server to cut.
const describeOnServer = process.env.DATABASE_URL ? describe : describe.skip;

/**
 * A pooler that restarts closes every client connection, statements in flight included. Under
 * DATABASE_POOLING=transaction each statement runs on a client checked out of the pool: losing its
 * connection must fail that request with a 503, never end the process.
 */
describeOnServer('connection lost under a statement (DATABASE_POOLING=transaction, built service behind a TCP proxy)', () => {
  const suite = useServiceBehindProxy({ DATABASE_POOLING: 'transaction', DATABASE_POOL_SIZE: '4' });
  let holder: Client;

  // Ended in afterEach: the suite's afterAll drops the database WITH (FORCE), which would otherwise cut this
  // client and raise an 'error' event with no listener in the test process.
  beforeEach(async () => {
    holder = new Client({ connectionString: suite.database.url });
    await holder.connect();
  });
  afterEach(async () => {
    await holder.end();
  });

  const get = (path: string) => fetch(suite.service.baseUrl + path, { headers: AUTH, signal: AbortSignal.timeout(10_000) });

  it('answers 503 to the requests whose connection was cut, keeps running, and serves again', async () => {
    expect((await get('/v1/pets?limit=1')).status).toBe(200);
    // Lists wait on the lock, so their statements are in flight when the connections are cut.
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE pets IN ACCESS EXCLUSIVE MODE');
    const waiting = Array.from({ length: 3 }, () =>
      get('/v1/pets?limit=1').then(
        async (answer) => ({ status: answer.status, body: await answer.json() }),
        (error: Error) => ({ status: 0, body: `${error.message}: ${(error.cause as Error | undefined)?.message ?? ''}` }),
      ),
    );
    await sleep(400);
    suite.proxy.set('refuse');
    const answers = await Promise.all(waiting);
    await holder.query('ROLLBACK');
    await sleep(300);
    expect({ exitCode: suite.service.child.exitCode, signal: suite.service.child.signalCode }).toEqual({ exitCode: null, signal: null });
    const unavailable = { code: 'service_unavailable', message: 'The service cannot reach its database; try again shortly', status: 503 };
    expect(answers).toEqual([503, 503, 503].map((status) => ({ status, body: unavailable })));
    suite.proxy.set('up');
    expect((await get('/v1/pets?limit=1')).status).toBe(200);
  });
});
