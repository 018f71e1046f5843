import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { sleep } from '../support/load';
import { AUTH } from '../support/test-key';
import { useTopology } from './topology';

/*
 * What the edge (deploy/haproxy/haproxy.cfg, as shipped) holds by itself, now that the process no longer
 * shapes traffic per source. Run against another config with PETSTORE_HAPROXY_CFG to see what it lacks.
 * The edge before any instance (bodies, idle connections, X-Forwarded-For) is edge-requests.cluster-spec.ts.
 */

interface Timed {
  status: number;
  ms: number;
}

/** A GET on a connection of its own (no keep-alive pool to hide a full accept queue), timed; 0: no answer in 5 s. */
function freshGet(url: string, headers: Record<string, string>, localAddress = '127.0.0.1'): Promise<Timed> {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status: number) => resolve({ status, ms: performance.now() - started });
    const req = request(url, { agent: false, headers, localAddress, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(0));
    req.end();
  });
}

/** A legitimate client beside a flood: one fresh-connection request every `intervalMs` until `until`. */
async function legitimate(url: string, intervalMs: number, until: Promise<unknown>): Promise<Timed[]> {
  let stopped = false;
  void until.then(() => (stopped = true));
  const answers: Timed[] = [];
  while (!stopped) {
    answers.push(await freshGet(url, AUTH));
    await sleep(intervalMs);
  }
  return answers;
}

/** test/cluster/idle-flood.mjs in a process of its own (see there): what it opened, and at most held at once. */
async function idleFlood(
  port: number,
  addresses: number,
  perAddress: number,
  durationMs: number,
  { first = '127.0.1.1', pipelined = 0 } = {},
): Promise<{ opened: number; peak: number }> {
  const child = spawn(
    process.execPath,
    [join(__dirname, 'idle-flood.mjs'), String(port), first, String(addresses), String(perAddress), String(durationMs), String(pipelined)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await once(child, 'exit');
  return JSON.parse(out) as { opened: number; peak: number };
}

/** A process's resident memory in MB (Linux). */
const residentMb = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024);
const slowest = (answers: Timed[]) => Math.round(Math.max(...answers.map((a) => a.ms)));
const tally = (statuses: number[]) =>
  Object.entries(statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {}))
    .map(([status, n]) => `${n} × ${status === '0' ? 'refused' : status}`)
    .join(', ');

describe('the edge under per-source floods, in front of the service (test:cluster)', () => {
  // The process keeps no per-address limits of its own (the rebuild removed them; 0 turns off what an
  // older build still has): whatever holds here, the edge holds.
  const cluster = useTopology({ RATE_LIMIT_PER_MINUTE: '0', AUTH_FAILURES_PER_MINUTE: '0' });

  it('answers a legitimate client within 1 s while 100 addresses hold 45 silent connections each', async () => {
    const port = Number(new URL(cluster.topology.baseUrl).port);
    const flooding = idleFlood(port, 100, 45, 8_000);
    await sleep(1_500);
    const answers = await legitimate(`${cluster.topology.baseUrl}/v1/pets?limit=1`, 250, flooding);
    const { opened, peak } = await flooding;
    console.log(
      `silent connections (100 addresses × 45, ${opened} connections opened, at most ${peak} open at once): legitimate client ` +
        `${tally(answers.map((a) => a.status))}, slowest ${slowest(answers)} ms`,
    );
    expect(answers.length).toBeGreaterThan(5);
    expect(answers.filter((a) => a.status !== 200 || a.ms > 1000)).toEqual([]);
  });

  it('keeps an unread pipelined flood of 1,000 connections out of the instances: their memory stays flat', async () => {
    const port = Number(new URL(cluster.topology.baseUrl).port);
    const rss = () => cluster.topology.instances.map((instance) => residentMb(instance.child.pid!));
    const before = rss();
    let peak = before;
    const sampling = setInterval(() => (peak = rss().map((mb, i) => Math.max(mb, peak[i]))), 200);
    // 34 addresses x 30 connections (the per-source cap), 40 requests each sent at once, no answer read.
    const flooding = idleFlood(port, 34, 30, 8_000, { first: '127.0.2.1', pipelined: 40 });
    await sleep(1_500);
    const [answers, probes] = await Promise.all([
      legitimate(`${cluster.topology.baseUrl}/v1/pets?limit=1`, 250, flooding),
      legitimate(`${cluster.topology.instanceUrl(0)}/health/live`, 250, flooding),
    ]);
    const { opened } = await flooding;
    clearInterval(sampling);
    console.log(
      `pipelined flood (${opened} connections, 40 requests each, unread): instance RSS ${before.join('/')} MB before, at most ` +
        `${peak.join('/')} MB; legitimate client ${tally(answers.map((a) => a.status))}, slowest ${slowest(answers)} ms; ` +
        `/health/live straight to an instance ${tally(probes.map((a) => a.status))}, slowest ${slowest(probes)} ms`,
    );
    expect(peak.map((mb, i) => mb - before[i]).filter((growth) => growth > 30)).toEqual([]);
    // Served throughout; 2 s, not 1: the flood's 40,000 requests are answered by the same two cores.
    expect(answers.filter((a) => a.status !== 200 || a.ms > 2000)).toEqual([]);
    expect(probes.filter((a) => a.status !== 200 || a.ms > 2000)).toEqual([]);
  });

  it('bounds the key look-ups a source of random keys costs, while a valid key from another source is served', async () => {
    const scans = async () =>
      Number((await cluster.sql.query(`SELECT coalesce(idx_scan, 0) + seq_scan AS n FROM pg_stat_user_tables WHERE relname = 'api_keys'`)).rows[0].n);
    const scansBefore = await scans();
    const agent = new Agent({ keepAlive: true, maxSockets: 16, localAddress: '127.0.0.5' });
    const statuses: number[] = [];
    const deadline = Date.now() + 15_000;
    const randomKeys = (async () => {
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (Date.now() < deadline && statuses.length < 20_000) {
            const key = `pet_${randomBytes(32).toString('base64url')}`;
            statuses.push(await freshStatus(`${cluster.topology.baseUrl}/v1/pets?limit=1`, { authorization: `Bearer ${key}` }, agent));
          }
        }),
      );
      agent.destroy();
    })();
    const answers = await legitimate(`${cluster.topology.baseUrl}/v1/pets?limit=1`, 200, randomKeys);
    await sleep(1_500); // PostgreSQL's statistics are flushed about once a second
    const lookups = (await scans()) - scansBefore;
    const reached = statuses.filter((s) => s === 401).length;
    console.log(
      `15 s of random keys from 127.0.0.5 (16 connections): ${tally(statuses)}; ${lookups} scans of api_keys; ` +
        `valid key from 127.0.0.1: ${tally(answers.map((a) => a.status))}, slowest ${slowest(answers)} ms`,
    );
    // Each 401 is a request that reached an instance: at most the per-minute allowance (30) plus the
    // requests in flight when it was reached (16 connections).
    expect(reached).toBeLessThanOrEqual(30 + 16);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
  });
});

/** A keep-alive GET through `agent` (its source address): the status (0: no answer). */
function freshStatus(url: string, headers: Record<string, string>, agent: Agent): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { agent, headers, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}
