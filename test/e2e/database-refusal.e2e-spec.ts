import { Client } from 'pg';
import { expectError } from '../support/expectations';
import { useTestApp } from '../support/test-app';
import { AUTH } from '../support/test-key';

const UNAVAILABLE_MESSAGE = 'The service cannot reach its database; try again shortly';
const describeWithServer = process.env.DATABASE_URL && process.env.PETSTORE_TOPOLOGY !== 'cluster' ? describe : describe.skip;

/** A database that is up but refuses this service's connections (SQLSTATE 55000) is unavailable, not a fault. */
describeWithServer('a database that refuses connections (e2e)', () => {
  const api = useTestApp();

  it('answers 503 service_unavailable to every request, not 500', async () => {
    expect((await api.request('GET', '/v1/pets', { headers: AUTH })).status).toBe(200);
    const url = new URL(api.database.url);
    const name = url.pathname.slice(1);
    url.pathname = '/postgres';
    // PostgreSQL refuses to disallow connections to the database the statement runs in.
    const admin = new Client({ connectionString: url.toString() });
    await admin.connect();
    // The suite's own connection stays: only the service's are cut.
    const kept = (await api.sql.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    try {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> $2', [name, kept]);
      for (let i = 0; i < 3; i++) {
        expectError(await api.request('GET', '/v1/pets', { headers: AUTH }), 503, 'service_unavailable', UNAVAILABLE_MESSAGE);
      }
    } finally {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await admin.end();
    }
  });
});
