import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { Outcome, runLoad, sleep } from '../support/load';
import { AUTH } from '../support/test-key';
import { ONE_SOURCE_LOAD } from './haproxy';
import { INSTANCES, Topology, useTopology } from './topology';

/** Mixed load through HAProxy: creates with an Idempotency-Key, lists, gets. */
function mixedLoad(topology: Topology, until: Promise<unknown>) {
  return runLoad({
    baseUrl: topology.baseUrl,
    headers: AUTH,
    concurrency: 8,
    until,
    next: (c, i) => {
      if (i % 3 === 0)
        return { method: 'POST', path: '/v1/pets', body: { name: `load ${c}-${i}`, categoryId: 2 }, headers: { 'idempotency-key': randomUUID() } };
      return i % 3 === 1 ? { method: 'GET', path: '/v1/pets?limit=5' } : { method: 'GET', path: '/v1/pets/1' };
    },
  });
}

/** Pets answered 201 that the database does not hold. */
async function missingPets(sql: Client, outcomes: Outcome[]): Promise<number[]> {
  const acknowledged = outcomes.filter((o) => o.status === 201).map((o) => (o.body as { id: number }).id);
  const { rows } = await sql.query<{ id: string }>('SELECT id FROM pets WHERE id = ANY($1::bigint[])', [acknowledged]);
  const stored = new Set(rows.map((row) => Number(row.id)));
  return acknowledged.filter((id) => !stored.has(id));
}

const summary = (outcomes: Outcome[]) => {
  const failures = outcomes.filter((o) => o.status !== 200 && o.status !== 201);
  return `${outcomes.length} requests, ${outcomes.filter((o) => o.status === 201).length} pets created, ${failures.length} failures`;
};

describe('scale-out: zero-downtime operation behind HAProxy (test:cluster)', () => {
  const cluster = useTopology({ RATE_LIMIT_PER_MINUTE: '0' }, ONE_SOURCE_LOAD);
  beforeAll(() => cluster.sql.query(`INSERT INTO pets (name, category_id) VALUES ('first', 1)`));

  /** Mixed load until `script` ends; what failed, and which acknowledged pets the database lacks. */
  async function underLoad(script: Promise<void>) {
    const { outcomes } = await mixedLoad(
      cluster.topology,
      script.catch(() => undefined),
    );
    await script;
    const failures = outcomes.filter((o) => o.status !== 200 && o.status !== 201);
    return { outcomes, failures, missing: await missingPets(cluster.sql, outcomes) };
  }

  it('restarts every instance in turn under load without a client seeing an error', async () => {
    const restarts: number[] = [];
    const script = (async () => {
      await sleep(1000);
      for (let i = 0; i < INSTANCES; i++) {
        const started = Date.now();
        expect(await cluster.topology.instances[i].stop('SIGTERM')).toBe(0);
        await cluster.topology.startInstance(i);
        await cluster.topology.waitForServers(INSTANCES);
        restarts.push(Date.now() - started);
      }
      await sleep(1000);
    })();
    const { outcomes, failures, missing } = await underLoad(script);
    console.log(`rolling restart: ${summary(outcomes)}, ${missing.length} acknowledged pets missing; each restart took ${restarts.join(' / ')} ms`);
    expect(outcomes.length).toBeGreaterThan(100);
    expect(failures.map((o) => `${o.request.method} ${o.request.path} ${o.status}`)).toEqual([]);
    expect(missing).toEqual([]);
  });

  it('loses only what a killed instance held, nothing later than 3 s after the kill', async () => {
    let killedAt = Infinity;
    let t0 = 0;
    const script = (async () => {
      await sleep(1500);
      killedAt = performance.now() - t0;
      await cluster.topology.instances[1].stop('SIGKILL');
      await sleep(4000);
      await cluster.topology.startInstance(1);
      await cluster.topology.waitForServers(INSTANCES);
      await sleep(1000);
    })();
    t0 = performance.now();
    const { outcomes, failures, missing } = await underLoad(script);
    console.log(
      `SIGKILL of one instance: ${summary(outcomes)} (${failures.map((o) => `${o.request.method} ${o.status} at +${Math.round(o.end - killedAt)} ms`).join(', ') || 'none'}), ` +
        `${missing.length} acknowledged pets missing`,
    );
    expect(outcomes.length).toBeGreaterThan(100);
    // A failure is a request the killed instance held: sent before the kill, answered within 3 s of it.
    expect(failures.filter((o) => o.start > killedAt || o.end > killedAt + 3000)).toEqual([]);
    expect(missing).toEqual([]);
  });

  it('survives PgBouncer restarts (SIGKILL, then SIGINT): no instance exits, no failure later than 3 s after the pooler is back', async () => {
    const windows: { down: number; back: number; signal: string }[] = [];
    let t0 = 0;
    const script = (async () => {
      await sleep(1500);
      for (const signal of ['SIGKILL', 'SIGINT'] as const) {
        const down = performance.now() - t0;
        await cluster.topology.restartPgBouncer(signal, 1000);
        windows.push({ down, back: performance.now() - t0, signal });
        await sleep(5000);
      }
    })();
    t0 = performance.now();
    const { outcomes, failures } = await underLoad(script);
    const exits = cluster.topology.instances.filter((instance) => instance.child.exitCode !== null || instance.child.signalCode !== null);
    const late = failures.filter((o) => !windows.some((w) => o.end > w.down && o.start < w.back + 3000));
    console.log(
      `PgBouncer restarts under load: ${summary(outcomes)}; ` +
        windows
          .map((w) => {
            const failed = failures.filter((o) => o.end > w.down && o.start < w.back + 3000);
            const last = Math.max(w.back, ...failed.map((o) => o.end));
            return `${w.signal}: down ${Math.round(w.back - w.down)} ms, ${failed.length} failed (503), the last ${Math.round(last - w.back)} ms after it was back`;
          })
          .join('; ') +
        `; ${late.length} failures outside those windows; ${exits.length} instance exits`,
    );
    expect(exits.length).toBe(0);
    expect(outcomes.length).toBeGreaterThan(100);
    // Requests that needed the pooler while it was away answer 503, never hang past the 3 s promise.
    expect(failures.filter((o) => o.status !== 503)).toEqual([]);
    expect(late).toEqual([]);
    // Every instance carries on: HAProxy sees all three up.
    await cluster.topology.waitForServers(INSTANCES);
  });
});
