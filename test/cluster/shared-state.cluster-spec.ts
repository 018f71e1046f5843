import { Client } from 'pg';
import { KEYS_CLI, MAIN, run } from '../support/processes';
import { AUTH } from '../support/test-key';
import { INSTANCES, Topology, useTopology } from './topology';

/** Three instances behind HAProxy and PgBouncer (transaction pooling, stock settings) share one truth. */
describe('scale-out: shared state through the pooler (test:cluster)', () => {
  // All three instances start at the same moment on a fresh database (Topology.start).
  const cluster = useTopology({ RATE_LIMIT_PER_MINUTE: '30' });

  const newKey = (name: string) => createKey(cluster.topology, name);
  const on = (i: number, path: string, init: RequestInit = {}) =>
    fetch(cluster.topology.instanceUrl(i) + path, { signal: AbortSignal.timeout(10_000), ...init });

  it('starts three instances at once on a fresh database: the migrations ran once', async () => {
    const { rows } = await cluster.sql.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
    expect(rows.map((row) => row.name)).toEqual([
      'CreatePets1763769600000',
      'CreateApiKeys1763856000000',
      'CreateIdempotencyKeys1763942400000',
      'CapPetIds1764028800000',
      'AddApiKeysLastDeprecatedCall1764115200000',
    ]);
    expect(await cluster.topology.serverStates()).toEqual(['UP', 'UP', 'UP']);
  });

  it('refuses to start through PgBouncer without DATABASE_POOLING, naming the setting', async () => {
    const { DATABASE_POOLING: _, ...env } = cluster.topology.instanceEnv;
    const result = await run(process.execPath, [MAIN], { ...env, PORT: '0' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'DATABASE_URL answered "unsupported startup parameter: statement_timeout": it is a connection pooler. Set DATABASE_POOLING=transaction',
    );
  });

  it('refuses a revoked key on every instance within 5 s (LISTEN on DATABASE_DIRECT_URL)', async () => {
    const delays = await revocationDelays(cluster.topology);
    console.log(`revocation (LISTEN on the direct URL) seen by each instance after ${delays.join(' / ')} ms`);
    expect(Math.max(...delays)).toBeLessThan(5000);
  });

  it('keeps one rate-limit budget per key across all instances', async () => {
    const { key } = await newKey('rate limit');
    const bearer = { authorization: `Bearer ${key}` };
    const statuses = await Promise.all(
      Array.from({ length: 45 }, (_, n) => on(n % INSTANCES, '/v1/pets?limit=1', { headers: bearer }).then((r) => r.status)),
    );
    const byInstance = Array.from({ length: INSTANCES }, (_, i) => statuses.filter((status, n) => n % INSTANCES === i && status === 429).length);
    console.log(
      `rate limit 30/min, 45 requests over 3 instances: ${statuses.filter((s) => s === 200).length} answered 200, 429s per instance ${byInstance.join(' / ')}`,
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it('stores one pet for one Idempotency-Key sent to two instances at once', async () => {
    const { key } = await newKey('idempotency');
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'cluster-once' };
    const body = JSON.stringify({ name: 'Twice', categoryId: 4 });
    const answers = await Promise.all([0, 1].map((i) => on(i, '/v1/pets', { method: 'POST', headers, body })));
    const statuses = answers.map((a) => a.status).sort();
    // Both ran at once: one created, the other replayed it or was told it is in progress.
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    expect((await cluster.sql.query(`SELECT count(*)::int AS n FROM pets WHERE name = 'Twice'`)).rows).toEqual([{ n: 1 }]);
  });

  it('honours on every instance a cursor issued by another', async () => {
    await cluster.sql.query(`INSERT INTO pets (name, category_id) SELECT 'page ' || g, 1 FROM generate_series(1, 5) g`);
    const first = await on(0, '/v1/pets?limit=2', { headers: AUTH });
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')![1];
    const firstIds = ((await first.json()) as { id: number }[]).map((pet) => pet.id);
    const elsewhere = await Promise.all(
      [1, 2].map(async (i) => ((await (await on(i, next, { headers: AUTH })).json()) as { id: number }[]).map((pet) => pet.id)),
    );
    expect(elsewhere[0]).toHaveLength(2);
    expect(elsewhere[1]).toEqual(elsewhere[0]);
    expect(elsewhere[0][0]).toBeGreaterThan(firstIds[1]);
  });

  it('answers 503 within 3 s, not a hang, when a statement outlives the timeout through the pooler', async () => {
    const holder = new Client({ connectionString: cluster.topology.database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE pets IN ACCESS EXCLUSIVE MODE');
      const sleeping = holder.query('SELECT pg_sleep(4)');
      const started = Date.now();
      const response = await fetch(`${cluster.topology.baseUrl}/v1/pets?limit=1`, { headers: AUTH });
      const elapsed = Date.now() - started;
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        code: 'service_unavailable',
        message: 'The service cannot reach its database; try again shortly',
        status: 503,
      });
      expect(elapsed).toBeLessThan(3000);
      // PostgreSQL itself gives up on the statement (SET LOCAL statement_timeout): nothing is left
      // waiting for the lock, long before the lock is released.
      const lockWaits = async () =>
        (await cluster.sql.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`))
          .rows[0].n;
      for (let tries = 0; tries < 20 && (await lockWaits()) > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await lockWaits()).toBe(0);
      expect(Date.now() - started).toBeLessThan(3000);
      console.log(`statement timeout through PgBouncer: 503 after ${elapsed} ms`);
      await sleeping;
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
  });
});

describe('scale-out: revocation without a direct connection (test:cluster)', () => {
  const cluster = useTopology({ DATABASE_DIRECT_URL: '' });

  it('refuses a revoked key on every instance within 5 s (polling: the cache trusts a key for 3 s)', async () => {
    const delays = await revocationDelays(cluster.topology);
    console.log(`revocation (no direct URL: polling) seen by each instance after ${delays.join(' / ')} ms`);
    expect(Math.max(...delays)).toBeLessThan(5000);
  });
});

/** The key tool as an operator runs it: through the pooler, in production, with no CURSOR_SECRET (it signs no cursor). */
function keyTool(topology: Topology, ...args: string[]) {
  return run(process.execPath, [KEYS_CLI, ...args], { NODE_ENV: 'production', DATABASE_URL: topology.pgbouncerUrl, DATABASE_POOLING: 'transaction' });
}

async function createKey(topology: Topology, name: string): Promise<{ key: string; id: string }> {
  const created = await keyTool(topology, 'create', '--name', name);
  expect(created).toMatchObject({ code: 0 });
  return { key: created.stdout.trim(), id: /Created API key (\d+)/.exec(created.stderr)![1] };
}

/** Creates a key, uses it on every instance, revokes it, and measures when each instance refuses it. */
async function revocationDelays(topology: Topology): Promise<number[]> {
  const { key, id } = await createKey(topology, 'revocation');
  const get = (i: number) =>
    fetch(`${topology.instanceUrl(i)}/v1/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
  for (let i = 0; i < INSTANCES; i++) expect(await get(i)).toBe(200);
  expect(await keyTool(topology, 'revoke', id)).toMatchObject({ code: 0 });
  const revokedAt = Date.now();
  return Promise.all(
    Array.from({ length: INSTANCES }, async (_, i) => {
      while (Date.now() - revokedAt < 10_000) {
        if ((await get(i)) === 401) return Date.now() - revokedAt;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return Infinity;
    }),
  );
}
