import { Outcome, runLoad, sleep } from '../support/load';
import { useServiceBehindProxy } from '../support/proxied-service';
import { AUTH } from '../support/test-key';

// The proxy sits between the service and a PostgreSQL server; the embedded database has no server to cut.
const describeOnServer = process.env.DATABASE_URL ? describe : describe.skip;

// Both ways to the database: each statement in a transaction of its own (DATABASE_POOLING=transaction) too.
describeOnServer.each(['session', 'transaction'])(
  'database outage, %s pooling (built service behind a TCP proxy; needs a PostgreSQL server)',
  (pooling) => {
    const suite = useServiceBehindProxy({ DATABASE_POOL_SIZE: '4', DATABASE_POOLING: pooling });

    const get = (path: string) => fetch(suite.service.baseUrl + path, { headers: AUTH, signal: AbortSignal.timeout(10000) });

    // Runs first, on a pool that has not connected under load: pg's own connect timeout ('timeout expired') was a 500.
    // Four times the pool's 4 connections: the requests queued behind the first attempts waited for attempts of their own.
    it('answers 503 within 3 s, never 500, when the database is silent while the pool connects', async () => {
      suite.proxy.set('blackhole');
      const { outcomes } = await runLoad({
        baseUrl: suite.service.baseUrl,
        headers: AUTH,
        concurrency: 16,
        until: sleep(2000),
        next: (c, i) =>
          i % 2
            ? { method: 'GET', path: '/v1/pets?limit=5' }
            : { method: 'POST', path: '/v1/pets', body: { name: `silent ${c}-${i}`, categoryId: 1 } },
      });
      // Down, then back: the connections the silence held are cut (the proxy never resumes them).
      suite.proxy.set('refuse');
      suite.proxy.set('up');
      expect(outcomes.length).toBeGreaterThanOrEqual(16);
      expect(outcomes.filter((o) => o.status !== 503)).toEqual([]);
      expect(Math.max(...outcomes.map((o) => o.end - o.start))).toBeLessThan(3000);
      for (const o of outcomes) {
        expect(o.body).toEqual({ code: 'service_unavailable', message: 'The service cannot reach its database; try again shortly', status: 503 });
      }
      // Each with its reason on a line of the exception filter's (written within 200 ms).
      const reasons = () => suite.service.lines.filter((line) => line.includes('"context":"Errors"') && / failed: .*time/.test(line));
      while (reasons().length < outcomes.length) await sleep(100);
      // Back before the next test: ready again once the database answers.
      while ((await get('/health/ready')).status !== 200) await sleep(200);
    });

    it('answers 503 within 3 s while the database is down or silent, stays alive, and recovers within 5 s', async () => {
      const marks: Record<string, number> = {};
      const readyDuringOutage: Array<{ status: number; body: unknown }> = [];
      let liveDuringOutage = 0;
      let t0 = 0;
      // After the restore: resolved once RECOVERED answers in a row succeed (a 503 starts the count again).
      const RECOVERED = 40;
      let succeeded = 0;
      let recovered = () => undefined as void;
      // The outage once the load is under way (16 answers: the pool has connected), not after a fixed time.
      const WARM = 16;
      let warm = () => undefined as void;
      const warmedUp = new Promise<void>((resolve) => (warm = resolve));
      let served = 0;
      const onOutcome = (o: Outcome) => {
        if ((o.status === 200 || o.status === 201) && ++served === WARM) warm();
        if (marks.restore === undefined) return;
        succeeded = o.status === 200 || o.status === 201 ? succeeded + 1 : 0;
        if (succeeded >= RECOVERED) recovered();
      };
      const script = (async () => {
        await warmedUp;
        // First silent (open connections stop answering mid-query), then refusing every connection.
        marks.outage = performance.now() - t0;
        suite.proxy.set('blackhole');
        await sleep(3000);
        suite.proxy.set('refuse');
        await sleep(1000);
        const ready = await get('/health/ready');
        readyDuringOutage.push({ status: ready.status, body: await ready.json() });
        liveDuringOutage = (await get('/health/live')).status;
        await sleep(1500);
        const backUp = new Promise<void>((resolve) => (recovered = resolve));
        marks.restore = performance.now() - t0;
        suite.proxy.set('up');
        // Recovery is due within 5 s (asserted below): wait for it, at most twice that.
        await Promise.race([backUp, sleep(10_000)]);
      })();
      t0 = performance.now();
      const { outcomes } = await runLoad({
        baseUrl: suite.service.baseUrl,
        headers: AUTH,
        concurrency: 8,
        until: script,
        onOutcome,
        next: (c, i) =>
          i % 2 ? { method: 'GET', path: '/v1/pets?limit=5' } : { method: 'POST', path: '/v1/pets', body: { name: `pet ${c}-${i}`, categoryId: 1 } },
      });

      expect(suite.service.child.exitCode).toBeNull();
      expect(liveDuringOutage).toBe(200);
      expect(readyDuringOutage).toEqual([
        { status: 503, body: { code: 'service_unavailable', message: 'Not ready: the database does not answer', status: 503 } },
      ]);
      const unexpected = outcomes.filter((o) => ![200, 201, 503].includes(o.status));
      expect(unexpected).toEqual([]);
      for (const o of outcomes.filter((o) => o.status === 503)) {
        expect(o.body).toEqual({ code: 'service_unavailable', message: 'The service cannot reach its database; try again shortly', status: 503 });
      }
      const slowest = Math.max(...outcomes.map((o) => o.end - o.start));
      expect(slowest).toBeLessThan(3000);
      // Every request that began and ended inside the outage was refused.
      const inside = outcomes.filter((o) => o.start > marks.outage + 50 && o.end < marks.restore);
      expect(inside.length).toBeGreaterThan(20);
      expect(inside.filter((o) => o.status !== 503)).toEqual([]);
      // Recovery: from some moment after the restore on, every request succeeds.
      const failedAfter = outcomes.filter((o) => o.start >= marks.restore && o.status === 503);
      const recoveredAt = failedAfter.length ? Math.max(...failedAfter.map((o) => o.end)) : marks.restore;
      const after = outcomes.filter((o) => o.start > recoveredAt);
      expect(after.length).toBeGreaterThan(20);
      expect(after.every((o) => o.status === 200 || o.status === 201)).toBe(true);
      expect(recoveredAt - marks.restore).toBeLessThan(5000);
      expect((await get('/health/ready')).status).toBe(200);
      console.log(
        `database outage, ${pooling} pooling: ${outcomes.length} requests, ${outcomes.filter((o) => o.status === 503).length} answered 503, slowest ${Math.round(slowest)} ms, ` +
          `503 p99 ${Math.round(
            percentile(
              outcomes.filter((o) => o.status === 503),
              0.99,
            ),
          )} ms, recovered ${Math.round(recoveredAt - marks.restore)} ms after the database returned`,
      );
    });
  },
);

function percentile(outcomes: Outcome[], p: number): number {
  const sorted = outcomes.map((o) => o.end - o.start).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}
