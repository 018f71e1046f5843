'use strict';
/* What both benchmarks share: databases, processes, memory sampling, autocannon runs, the machine. */
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { once } = require('node:events');
const { readFileSync, writeFileSync, mkdirSync } = require('node:fs');
const os = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');

const ROOT = join(__dirname, '..');
const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const API_KEY = `pet_${randomBytes(32).toString('base64url')}`;
const CURSOR_SECRET = randomBytes(32).toString('base64url');
const AUTH = { authorization: `Bearer ${API_KEY}` };
/** The service runs exactly as `pnpm start` runs it: the node flags (heap and GC settings) are read from that script. */
const SERVICE = (() => {
  const start = require('../package.json').scripts.start;
  const [, flags] = /node ((?:--\S+ )*)apps\/api\/dist\/main\.js/.exec(start) ?? [];
  if (flags === undefined) throw new Error(`cannot read the node flags from the start script: ${start}`);
  return { script: 'apps/api/dist/main.js', args: flags.trim().split(' ').filter(Boolean) };
})();

async function withClient(url, work) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh database on the server; returns its URL and a function that drops it. */
async function createDatabase(label) {
  const name = `petstore_bench_${label}_${process.pid}`;
  await withClient(SERVER_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => c.query(`CREATE DATABASE ${name}`)));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => withClient(SERVER_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}

/** Adds `count` pets (statuses in turn) with one INSERT … SELECT generate_series, then refreshes statistics. */
async function seed(url, count) {
  await withClient(url, async (c) => {
    await c.query(
      `INSERT INTO pets (name, category_id, status)
       SELECT 'pet ' || n, 1 + n % 1000, (ARRAY['available', 'pending', 'sold'])[1 + n % 3] FROM generate_series(1, $1::int) AS n`,
      [count],
    );
    await c.query('VACUUM ANALYZE pets');
  });
}

/** Starts a server process and waits until it answers an authenticated list request. */
async function startServer({ name, script, args = [], env, port }) {
  const child = spawn(process.execPath, [...args, script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, API_KEYS: API_KEY, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = once(child, 'exit');
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/v1/pets?limit=1`, { headers: AUTH });
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    name,
    pid: child.pid,
    baseUrl: `http://127.0.0.1:${port}`,
    /** Peak resident memory in MB of the process and its children (cluster workers), from /proc. */
    peakRssMb: () => peakRssMb(child.pid),
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function peakRssMb(pid) {
  const pids = [pid, ...childPids(pid)];
  let kb = 0;
  for (const p of pids) {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      kb += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return Math.round(kb / 1024);
}

function childPids(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The three operations, as autocannon requests. `ids` bounds the ids `get` asks for. */
function operations(ids) {
  return {
    list: { method: 'GET', path: '/v1/pets?limit=20&status=available' },
    get: { method: 'GET', setupRequest: (request) => ({ ...request, path: `/v1/pets/${1 + Math.floor(Math.random() * ids)}` }) },
    create: {
      method: 'POST',
      path: '/v1/pets',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench', categoryId: 7, status: 'pending' }),
    },
  };
}

/** One autocannon run; non-2xx answers make the run fail loudly rather than flatter the figures. */
async function drive(baseUrl, request, { connections, duration }) {
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration,
    headers: AUTH,
    requests: [{ ...request, headers: { ...AUTH, ...request.headers } }],
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${baseUrl} ${request.path ?? ''}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, mean: result.latency.mean };
}

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverageAtStart: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

function writeResults(kind, data) {
  const dir = join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${kind}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
const round = (value, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

module.exports = { ROOT, SERVICE, CURSOR_SECRET, createDatabase, seed, startServer, operations, drive, machine, writeResults, mean, round };
