import { sleep } from '../support/load';
import { AUTH } from '../support/test-key';
import { Answer, flood, pacedClient, timedGet } from './flood';
import { INSTANCES, useTopology } from './topology';

const downs = async (stats: Promise<{ downs: number }[]>) => (await stats).reduce((sum, server) => sum + server.downs, 0);
const tally = (answers: Answer[]) =>
  Object.entries(answers.reduce<Record<number, number>>((t, a) => ({ ...t, [a.status]: (t[a.status] ?? 0) + 1 }), {}));

/** HAProxy as deploy/haproxy/haproxy.cfg configures it for the public: its own limits, checks and answers. */
describe('scale-out: the balancer under a flood and its own answers (test:cluster)', () => {
  // X-Forwarded-For, bodies and per-source floods: edge.cluster-spec.ts.
  const cluster = useTopology({ RATE_LIMIT_PER_MINUTE: '0' });

  it('keeps serving a client beside a 20 s unauthenticated flood from another address: no 503, no server DOWN', async () => {
    const downsBefore = await downs(cluster.topology.serverStats());
    const flooding = flood({
      baseUrl: cluster.topology.baseUrl,
      localAddress: '127.0.0.2',
      paths: ['/health/ready', '/v1/pets?limit=5', '/metrics'],
      // the per-source cap: more would only be refused at connect
      connections: 30,
      durationMs: 20_000,
      maxRequests: 2_000_000,
    });
    const client = pacedClient(`${cluster.topology.baseUrl}/v1/pets?limit=5`, AUTH, 100, flooding);
    const [flooded, answers] = await Promise.all([flooding, client]);
    const downEvents = (await downs(cluster.topology.serverStats())) - downsBefore;
    console.log(
      `20 s flood from 127.0.0.2 (answers: ${[...flooded].map(([status, n]) => `${n} × ${status || 'refused'}`).join(', ')}); ` +
        `client beside it: ${tally(answers)
          .map(([status, n]) => `${n} × ${status}`)
          .join(', ')}, slowest ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms; ${downEvents} DOWN events`,
    );
    expect(downEvents).toBe(0);
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(await cluster.topology.serverStates()).toEqual(['UP', 'UP', 'UP']);
  });

  it('does not pass the operational endpoints to the public', async () => {
    for (const path of ['/health/ready', '/health/live', '/metrics', '/%68ealth/ready']) {
      const answer = await timedGet(cluster.topology.baseUrl + path);
      expect({ path, status: answer.status, contentType: answer.contentType, body: answer.body }).toEqual({
        path,
        status: 404,
        contentType: 'application/json; charset=utf-8',
        body: { code: 'not_found', message: 'No route matches this path', status: 404 },
      });
    }
  });

  it('answers JSON 503 within 3 s while one instance is frozen (SIGSTOP), not after 15 s', async () => {
    const frozen = cluster.topology.instances[1].child;
    frozen.kill('SIGSTOP');
    try {
      // Round robin: of six requests, two reach the frozen instance before the checks take it out.
      const answers = await Promise.all(Array.from({ length: 6 }, () => timedGet(`${cluster.topology.baseUrl}/v1/pets?limit=1`, AUTH)));
      const held = answers.filter((a) => a.status !== 200);
      console.log(
        `one instance frozen: ${tally(answers).map(([status, n]) => `${n} × ${status}`)}; held ${held.map((a) => Math.round(a.ms)).join(' / ')} ms`,
      );
      expect(held.length).toBeGreaterThan(0);
      for (const answer of held) {
        expect({ status: answer.status, contentType: answer.contentType, body: answer.body }).toEqual({
          status: 503,
          contentType: 'application/json; charset=utf-8',
          body: { code: 'service_unavailable', message: 'The service did not answer in time; try again shortly', status: 503 },
        });
        // HAProxy's `timeout server` (3 s, the service's own bound for a 503), far from 15 s.
        expect(answer.ms).toBeLessThan(10_000);
      }
    } finally {
      frozen.kill('SIGCONT');
    }
    await cluster.topology.waitForServers(INSTANCES, 30_000);
  });

  it('answers JSON 503 while no instance is ready (PgBouncer stopped)', async () => {
    cluster.topology.signalPgBouncer('SIGSTOP');
    try {
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && (await cluster.topology.serverStates()).some((state) => state !== 'DOWN')) await sleep(200);
      expect(await cluster.topology.serverStates()).toEqual(['DOWN', 'DOWN', 'DOWN']);
      const answer = await timedGet(`${cluster.topology.baseUrl}/v1/pets?limit=1`, AUTH);
      console.log(`no instance ready: ${answer.status} after ${Math.round(answer.ms)} ms, ${answer.contentType}`);
      expect({ status: answer.status, contentType: answer.contentType, body: answer.body }).toEqual({
        status: 503,
        contentType: 'application/json; charset=utf-8',
        body: { code: 'service_unavailable', message: 'No instance of the service is available; try again shortly', status: 503 },
      });
    } finally {
      cluster.topology.signalPgBouncer('SIGCONT');
    }
    await cluster.topology.waitForServers(INSTANCES, 30_000);
  });
});
