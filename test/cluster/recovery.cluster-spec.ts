import { sleep } from '../support/load';
import { AUTH } from '../support/test-key';
import { Answer, timedGet } from './flood';
import { ONE_SOURCE_LOAD } from './haproxy';
import { useTopology } from './topology';

/**
 * PostgreSQL gone and back under load, behind PgBouncer as deploy/pgbouncer/pgbouncer.ini configures it.
 * The shared PostgreSQL of the test machine is not restarted: a relay between PgBouncer and it cuts every
 * connection and refuses new ones (what PgBouncer sees of a restart), then accepts again.
 */
describe('scale-out: recovery after the database returns (test:cluster)', () => {
  const cluster = useTopology({ RATE_LIMIT_PER_MINUTE: '0' }, ONE_SOURCE_LOAD);

  it('serves every request again within 5 s of PostgreSQL coming back', async () => {
    let stopped = false;
    const answers: (Answer & { at: number })[] = [];
    // A list (a database query) every 100 ms, each on its own request.
    const client = (async () => {
      while (!stopped) {
        const answer = await timedGet(`${cluster.topology.baseUrl}/v1/pets?limit=1`, AUTH);
        answers.push({ ...answer, at: performance.now() });
        await sleep(100);
      }
    })();
    await sleep(2_000);
    await cluster.topology.databaseRelay!.cut();
    await sleep(6_000);
    await cluster.topology.databaseRelay!.restore();
    const back = performance.now();
    // Until the last 20 answers after the return are 200s (checked below), at most 10 s.
    const served = () => answers.filter((a) => a.at - a.ms >= back).slice(-20);
    for (const deadline = back + 10_000; performance.now() < deadline; await sleep(100)) {
      const last = served();
      if (last.length === 20 && last.every((a) => a.status === 200)) break;
    }
    stopped = true;
    await client;
    const after = answers.filter((a) => a.at - a.ms >= back);
    const lastFailure = Math.max(0, ...after.filter((a) => a.status !== 200).map((a) => a.at - back));
    const during = answers.filter((a) => a.at < back && a.at - a.ms > back - 6_000);
    console.log(
      `database cut for 6 s: ${during.filter((a) => a.status !== 200).length} of ${during.length} requests refused meanwhile; after its return ` +
        `${after.filter((a) => a.status !== 200).length} of ${after.length} failed, the last ${Math.round(lastFailure)} ms after`,
    );
    expect(during.some((a) => a.status === 503)).toBe(true);
    expect(lastFailure).toBeLessThan(5_000);
    expect(after.slice(-20).map((a) => a.status)).toEqual(Array(20).fill(200));
  });
});
