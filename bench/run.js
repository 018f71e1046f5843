'use strict';
/*
 * `pnpm bench [revision]`: the service built from this tree against itself built from a git revision,
 * in alternated rounds, with a second instance of this tree beside them for the A/A noise. Each runs as
 * `pnpm start` runs it (production mode, apps/api/start.sh) on a database of its own. See the usage below.
 */
const { execFileSync, spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { once } = require('node:events');
const { existsSync, mkdtempSync, rmSync } = require('node:fs');
const { createServer } = require('node:net');
const os = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { childPids, cpuSeconds, statusKb } = require('../scripts/proc');

const USAGE = `Usage: pnpm bench [revision]   (node bench/run.js [revision])
  The service built from this tree against the same service built from a git revision (default:
  origin/main if it exists, else the last tag, else HEAD~1), checked out and built in a temporary
  worktree, plus a second instance of this tree for the A/A noise. Each side runs as pnpm start runs it
  (production mode, apps/api/start.sh) on a database of its own, seeded alike, and is driven with
  autocannon one side at a time, in rounds whose order turns. Prints req/s, p50/p99 latency and CPU time
  per request (/proc) per side, the ratios paired per round, and peak resident memory.
Environment:
  DATABASE_URL       the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
  BENCH_PETS         pets seeded (default 5000)
  BENCH_DURATION     seconds per measured run (default 10)
  BENCH_ROUNDS       rounds per side and operation (default 3)
  BENCH_CONNECTIONS  concurrent connections (default 10)
  BENCH_OPS          operations, comma-separated (default list,get,create)`;

const ROOT = join(__dirname, '..');
const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const PETS = Number(process.env.BENCH_PETS || 5000);
const DURATION = Number(process.env.BENCH_DURATION || 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);
const API_KEY = `pet_${randomBytes(32).toString('base64url')}`;
const AUTH = { authorization: `Bearer ${API_KEY}` };
const OPERATIONS = {
  list: { method: 'GET', path: '/v1/pets?limit=20&status=available' },
  get: { method: 'GET', setupRequest: (request) => ({ ...request, path: `/v1/pets/${1 + Math.floor(Math.random() * PETS)}` }) },
  create: {
    method: 'POST',
    path: '/v1/pets',
    headers: { 'content-type': 'application/json' },
    body: '{"name":"Bench","categoryId":7,"status":"pending"}',
  },
};

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
const tryGit = (...args) => {
  try {
    return git(...args);
  } catch {
    return undefined;
  }
};
const sh = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });

/** The revision to measure against: the one named, else origin/main, else the last tag, else HEAD~1. */
function baseRevision(named) {
  const name =
    named ?? (tryGit('rev-parse', '--verify', '-q', 'origin/main') ? 'origin/main' : (tryGit('describe', '--tags', '--abbrev=0') ?? 'HEAD~1'));
  const sha = tryGit('rev-parse', '--verify', '-q', `${name}^{commit}`);
  if (!sha) throw new Error(`no such revision: ${name}`);
  return { name, sha };
}

/** A fresh database on the server; returns its URL and a function that drops it. */
async function createDatabase(label) {
  const name = `petstore_bench_${label}_${process.pid}`;
  const admin = (sql) => withClient(SERVER_URL, (c) => c.query(sql));
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
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

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

/** Migrates, starts and seeds the service of the tree `root`, then waits for an authenticated list to answer. */
async function startService(label, root, database) {
  const env = {
    PATH: process.env.PATH,
    NODE: process.execPath,
    NODE_ENV: 'production',
    DATABASE_URL: database.url,
    API_KEYS: API_KEY,
    CURSOR_SECRET: randomBytes(32).toString('base64url'),
    METRICS_TOKEN: randomBytes(32).toString('hex'),
    // Counted and announced, never reached.
    RATE_LIMIT_PER_MINUTE: '1000000',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
  };
  const migrate = join(root, 'apps/api/dist/bin/migrate.js');
  if (existsSync(migrate)) execFileSync(process.execPath, [migrate], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const child = spawn(join(root, 'apps/api/start.sh'), [], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = once(child, 'exit');
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  for (const deadline = Date.now() + 120_000; ;) {
    if (child.exitCode !== null) throw new Error(`${label} exited with ${child.exitCode}`);
    const status = await fetch(`${baseUrl}/v1/pets?limit=1`, { headers: AUTH }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) throw new Error(`${label} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await withClient(database.url, async (c) => {
    await c.query(
      `INSERT INTO pets (name, category_id, status)
       SELECT 'pet ' || n, 1 + n % 1000, (ARRAY['available', 'pending', 'sold'])[1 + n % 3] FROM generate_series(1, $1::int) AS n`,
      [PETS],
    );
    await c.query('VACUUM ANALYZE pets');
  });
  const pids = () => [child.pid, ...childPids(child.pid)];
  return {
    label,
    baseUrl,
    cpuSeconds: () => pids().reduce((sum, pid) => sum + cpuSeconds(pid), 0),
    peakRssMb: () => Math.round(pids().reduce((sum, pid) => sum + statusKb(pid, 'VmHWM'), 0) / 1024),
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * One autocannon run; any non-2xx answer fails the bench. Latency percentiles come from every answer's
 * own time (autocannon's histogram keeps whole milliseconds); CPU per request from /proc, less sensitive
 * to the machine's other load than req/s.
 */
async function drive(side, request, duration) {
  const cpuBefore = side.cpuSeconds();
  const times = [];
  const result = await new Promise((resolve, reject) => {
    const run = autocannon(
      { url: side.baseUrl, connections: CONNECTIONS, duration, requests: [{ ...request, headers: { ...AUTH, ...request.headers } }] },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    run.on('response', (_client, _status, _bytes, ms) => times.push(ms * 1000));
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(
      `${side.label}: ${result.non2xx} non-2xx answers (by status: ${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors`,
    );
  times.sort((a, b) => a - b);
  const percentile = (p) => Math.round(times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]);
  const cpuUs = Math.round((1e6 * (side.cpuSeconds() - cpuBefore)) / result.requests.total);
  return { rps: result.requests.average, p50Us: percentile(50), p99Us: percentile(99), cpuUs };
}

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
const fixed = (value, digits = 2) => value.toFixed(digits);
/** Ratios paired per round: mean (min–max). */
const ratios = (a, b) => {
  const values = a.map((x, i) => x / b[i]);
  return `${fixed(mean(values))} (${fixed(Math.min(...values))}–${fixed(Math.max(...values))})`;
};

async function main() {
  const args = process.argv.slice(2).filter((arg) => arg !== '--');
  if (args.includes('--help') || args.includes('-h')) return console.log(USAGE);
  if (args.length > 1 || args[0]?.startsWith('-')) {
    console.error(`Unknown argument "${args.at(-1)}" (see --help)`);
    process.exit(2);
  }
  const base = baseRevision(args[0]);
  const here = `${tryGit('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? ' + changes' : ''}`;
  const worktree = mkdtempSync(join(os.tmpdir(), 'petstore-bench-'));
  const sides = [];
  const databases = [];
  try {
    console.error(`building this tree, and ${base.name} (${base.sha.slice(0, 7)}) in ${worktree}`);
    sh(process.execPath, [require.resolve('typescript/bin/tsc', { paths: [ROOT] }), '-b', 'tsconfig.build.json'], ROOT);
    git('worktree', 'add', '--detach', worktree, base.sha);
    sh('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], worktree);
    sh('pnpm', ['run', 'build'], worktree);
    for (const [label, root] of [
      ['this', ROOT],
      ['base', worktree],
      ['this again', ROOT],
    ]) {
      databases.push(await createDatabase(label.replace(' ', '_')));
      sides.push(await startService(label, root, databases.at(-1)));
    }
    const ops = (process.env.BENCH_OPS ?? 'list,get,create').split(',');
    const runs = {};
    for (const op of ops) {
      const request = OPERATIONS[op];
      if (!request) throw new Error(`unknown operation ${op}`);
      runs[op] = Object.fromEntries(sides.map((side) => [side.label, []]));
      for (const side of sides) await drive(side, request, 3); // warm-up
      for (let round = 0; round < ROUNDS; round += 1) {
        // The order turns each round and reverses every other one, so that no side always follows another.
        const order = sides.map((_, i) => sides[(i + round) % sides.length]);
        if (round % 2 === 1) order.reverse();
        for (const side of order) {
          const result = await drive(side, request, DURATION);
          runs[op][side.label].push(result);
          console.error(
            `  ${op} ${side.label} round ${round + 1}: ${Math.round(result.rps)} req/s, ${result.cpuUs} µs CPU/req, p99 ${result.p99Us} µs`,
          );
        }
      }
    }
    const cpus = os.cpus();
    console.log(
      `\nthis tree (${here}) against ${base.name} (${base.sha.slice(0, 7)}): ${PETS} pets, ${CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION} s a side`,
    );
    console.log(
      `${cpus.length} × ${cpus[0]?.model}, node ${process.version}, load average at the end ${os
        .loadavg()
        .map((l) => fixed(l))
        .join(' ')}\n`,
    );
    console.log('operation | side | req/s | p50 µs | p99 µs | CPU µs / request');
    console.log('--- | --- | --- | --- | --- | ---');
    for (const [op, bySide] of Object.entries(runs)) {
      for (const [label, results] of Object.entries(bySide)) {
        const of = (key) => Math.round(mean(results.map((r) => r[key])));
        console.log(`${op} | ${label} | ${of('rps')} | ${of('p50Us')} | ${of('p99Us')} | ${of('cpuUs')}`);
      }
    }
    console.log('\nratios paired per round, mean (min–max) | CPU / request | p99\n--- | --- | ---');
    for (const [op, bySide] of Object.entries(runs)) {
      const pick = (label, key) => bySide[label].map((r) => r[key]);
      console.log(
        `${op}: this / base | ${ratios(pick('this', 'cpuUs'), pick('base', 'cpuUs'))} | ${ratios(pick('this', 'p99Us'), pick('base', 'p99Us'))}`,
      );
      console.log(
        `${op}: A/A, this / this again | ${ratios(pick('this', 'cpuUs'), pick('this again', 'cpuUs'))} | ${ratios(pick('this', 'p99Us'), pick('this again', 'p99Us'))}`,
      );
    }
    console.log(`\npeak resident MB: ${sides.map((side) => `${side.label} ${side.peakRssMb()}`).join(', ')}`);
  } finally {
    for (const side of sides) await side.stop();
    for (const database of databases) await database.drop();
    tryGit('worktree', 'remove', '--force', worktree);
    rmSync(worktree, { recursive: true, force: true });
    tryGit('worktree', 'prune');
  }
}

main().catch((error) => {
  console.error('bench failed:', error);
  process.exitCode = 1;
});
