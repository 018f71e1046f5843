'use strict';
/* What both benchmarks share: databases, processes, memory sampling, autocannon runs, the machine. */
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { once } = require('node:events');
const { writeFileSync, mkdirSync } = require('node:fs');
const os = require('node:os');
const { join } = require('node:path');
const { createInterface } = require('node:readline');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { childPids, cpuSeconds, statusKb } = require('../scripts/proc');

const ROOT = join(__dirname, '..');
const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const API_KEY = `pet_${randomBytes(32).toString('base64url')}`;
const CURSOR_SECRET = randomBytes(32).toString('base64url');
/** Production demands a token for GET /metrics while metrics are on (the default, measured as deployed). */
const METRICS_TOKEN = randomBytes(32).toString('hex');
const AUTH = { authorization: `Bearer ${API_KEY}` };
/**
 * The service runs exactly as `pnpm start` runs it: through apps/api/start.sh, which holds the node flags
 * (heap and GC settings), with this process's node binary. Extra arguments are node options.
 */
const SERVICE = { command: join(ROOT, 'apps', 'api', 'start.sh'), env: { NODE: process.execPath } };
/**
 * The service's environment in the benchmarks, on the database at `url`: production mode, and a quota
 * the bench never reaches, so that the RateLimit headers are part of the work (as in the same-work
 * yardstick) while no request is refused. `extra` adds or overrides variables.
 */
function serviceEnv(url, extra = {}) {
  return {
    ...SERVICE.env,
    NODE_ENV: 'production',
    DATABASE_URL: url,
    CURSOR_SECRET,
    METRICS_TOKEN,
    RATE_LIMIT_PER_MINUTE: '1000000',
    ...extra,
  };
}
/** The bare Fastify + pg server the service is measured against. */
const BASELINE = { command: process.execPath, args: ['bench/baseline-server.js'] };
/** The bare server plus the log line, headers and metrics the service gives every answer. */
const SAME_WORK = { command: process.execPath, args: ['bench/same-work-server.js'] };

/**
 * `--help`/`-h`: prints the usage and ends the process (exit 0) before any work; anything else but the
 * options a script knows is refused (exit 2). Returns the remaining arguments.
 */
function handleArguments(usage, argv = process.argv.slice(2), accepted = []) {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  const unknown = argv.find((arg) => !accepted.includes(arg));
  if (unknown !== undefined) {
    process.stderr.write(`Unknown argument "${unknown}" (see --help)\n`);
    process.exit(2);
  }
  return argv;
}

/** `--name A=1 --name B=2` → { A: '1', B: '2' } for each option name. */
function envOptions(argv, option) {
  const env = {};
  argv.forEach((arg, i) => {
    if (arg !== option) return;
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(argv[i + 1] ?? '');
    if (!match) throw new Error(`${option} needs NAME=VALUE (got ${argv[i + 1]})`);
    env[match[1]] = match[2];
  });
  return env;
}
/** The arguments left once the --service-env / --versus-env pairs are taken out. */
function withoutEnvOptions(argv) {
  const options = ['--service-env', '--versus-env'];
  return argv.filter((arg, i) => arg !== '--' && !options.includes(arg) && !options.includes(argv[i - 1]));
}

/** Builds the workspace (`tsc -b`, as `pnpm build`: what is up to date is skipped). */
function buildIfStale() {
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const { status } = require('node:child_process').spawnSync(process.execPath, [tsc, '-b', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}

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

/**
 * Starts a server process on a free port (PORT=0: the system picks one; the server prints
 * `listening on http://…`), then waits until it answers an authenticated list request.
 */
async function startServer({ name, command, args = [], env }) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, API_KEYS: API_KEY, CURSOR_SECRET, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const baseUrl = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const match = /listening on (http:\/\/[^/\s"]+)/.exec(line);
      if (!match) return;
      // The rest of its output (a log line per request) is read and dropped, at no cost to either side.
      lines.close();
      child.stdout.resume();
      resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`${name} exited with ${child.exitCode} before listening`)));
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${baseUrl}/v1/pets?limit=1`, { headers: AUTH });
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
    baseUrl,
    /** Peak resident memory in MB of the process and its children, from /proc. */
    peakRssMb: () => peakRssMb(child.pid),
    /** CPU seconds (user + system) used so far by the process and its children (cluster workers), from /proc. */
    cpuSeconds: () => [child.pid, ...childPids(child.pid)].reduce((sum, p) => sum + cpuSeconds(p), 0),
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function peakRssMb(pid) {
  const kb = [pid, ...childPids(pid)].reduce((sum, p) => sum + statusKb(p, 'VmHWM'), 0);
  return Math.round(kb / 1024);
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

/**
 * One autocannon run; non-2xx answers make the run fail loudly rather than flatter the figures. Latency
 * percentiles come from every answer's own time in µs: autocannon's histogram keeps whole milliseconds,
 * too coarse when answers take under one. Given the server, also the CPU time it spent per answered
 * request (µs), less sensitive to the machine's other load than req/s.
 */
async function drive(baseUrl, request, { connections, duration }, server) {
  const cpuBefore = server?.cpuSeconds();
  const times = [];
  const result = await new Promise((resolve, reject) => {
    const run = autocannon(
      { url: baseUrl, connections, duration, headers: AUTH, requests: [{ ...request, headers: { ...AUTH, ...request.headers } }] },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    run.on('response', (_client, _status, _bytes, ms) => times.push(ms * 1000));
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${baseUrl} ${request.path ?? ''}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  const cpuUsPerRequest = server ? Math.round((1e6 * (server.cpuSeconds() - cpuBefore)) / result.requests.total) : undefined;
  times.sort((a, b) => a - b);
  const percentile = (p) => Math.round(times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]);
  const meanUs = Math.round(times.reduce((a, b) => a + b, 0) / times.length);
  return { rps: result.requests.average, meanUs, p50Us: percentile(50), p99Us: percentile(99), cpuUsPerRequest };
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

module.exports = {
  ROOT,
  SERVICE,
  serviceEnv,
  BASELINE,
  SAME_WORK,
  handleArguments,
  envOptions,
  withoutEnvOptions,
  buildIfStale,
  AUTH,
  CURSOR_SECRET,
  createDatabase,
  seed,
  startServer,
  operations,
  drive,
  machine,
  writeResults,
  mean,
  round,
};
