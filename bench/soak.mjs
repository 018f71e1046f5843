// Soak run: the BUILT service under mixed load for SOAK_SECONDS (default 300), sampling its resident
// memory; fails when any request errs or answers other than expected. Not part of CI: `pnpm bench:soak`.
// DATABASE_URL selects a PostgreSQL server; without it the service runs on its embedded PostgreSQL.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import pg from 'pg';

const USAGE = `Usage: pnpm bench:soak   (node bench/soak.mjs)
  The built service under mixed load, sampling its resident memory; fails on any error or unexpected
  answer. Builds first when the build is stale; the service listens on a free port.
Environment:
  SOAK_SECONDS      duration (default 300)
  SOAK_CONNECTIONS  concurrent connections (default 16)
  DATABASE_URL      a PostgreSQL server (a database of the soak's own is created); unset: the embedded PostgreSQL`;
const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
if (argv.length > 0) {
  console.error(`Unknown argument "${argv[0]}" (see --help)`);
  process.exit(2);
}
// Builds as pnpm build does (what is up to date is skipped).
if (spawnSync('pnpm', ['run', 'build'], { stdio: 'inherit' }).status !== 0) process.exit(1);

const seconds = Number(process.env.SOAK_SECONDS ?? 300);
const connections = Number(process.env.SOAK_CONNECTIONS ?? 16);
const key = `pet_${randomBytes(32).toString('base64url')}`;
const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'petstore-soak-'));
// On a server, a database of the soak's own, dropped at the end.
const serverUrl = process.env.DATABASE_URL;
const soakDb = `petstore_soak_${process.pid}`;
const admin = async (sql) => {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(sql).finally(() => client.end());
};
let databaseUrl;
if (serverUrl) {
  await admin(`CREATE DATABASE ${soakDb}`);
  const url = new URL(serverUrl);
  url.pathname = `/${soakDb}`;
  databaseUrl = url.toString();
}

/** Removes the soak's data folder or database. */
async function cleanUp() {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (serverUrl) await admin(`DROP DATABASE IF EXISTS ${soakDb} WITH (FORCE)`);
}

// As `pnpm start` runs it: start.sh's node flags bound the heap (start.sh execs node: child.pid is the service).
const child = spawn('apps/api/start.sh', [], {
  env: {
    ...process.env,
    // Production requires DATABASE_URL: the embedded PostgreSQL runs only in development.
    NODE_ENV: dataDir ? 'development' : 'production',
    API_KEYS: key,
    // Production refuses guessable secrets.
    CURSOR_SECRET: randomBytes(32).toString('base64'),
    METRICS_TOKEN: randomBytes(32).toString('hex'),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '0',
    ...(dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: databaseUrl }),
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const baseUrl = await new Promise((resolve, reject) => {
  createInterface({ input: child.stdout }).on('line', (line) => {
    const match = /listening on (http:\/\/[^/\s"]+)/.exec(line);
    if (match) resolve(match[1]);
  });
  child.on('exit', (code) => reject(new Error(`the service exited (${code}) before listening`)));
}).catch(async (error) => {
  await cleanUp();
  throw error;
});

// One pet first, so that GET /v1/pets/1 answers 200 from the start.
const seeded = await fetch(`${baseUrl}/v1/pets`, {
  method: 'POST',
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: '{"name":"Seed","categoryId":1}',
});
if (seeded.status !== 201) throw new Error(`seeding failed: ${seeded.status}`);

const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
const samples = [{ t: 0, rss: rssMiB() }];
const started = Date.now();
const sampler = setInterval(() => samples.push({ t: (Date.now() - started) / 1000, rss: rssMiB() }), 5000);

const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const result = await autocannon({
  url: baseUrl,
  connections,
  duration: seconds,
  requests: [
    { method: 'POST', path: '/v1/pets', headers: auth, body: JSON.stringify({ name: 'Soak', categoryId: 1, status: 'pending' }) },
    { method: 'GET', path: '/v1/pets?limit=20', headers: auth },
    { method: 'GET', path: '/v1/pets?status=pending&limit=5', headers: auth },
    { method: 'GET', path: '/v1/pets/1', headers: auth },
    { method: 'GET', path: '/health/ready' },
  ],
});
clearInterval(sampler);
samples.push({ t: (Date.now() - started) / 1000, rss: rssMiB() });
child.kill('SIGTERM');
const [exitCode] = await new Promise((resolve) => child.once('exit', (...args) => resolve(args)));
await cleanUp();

const rss = samples.map((s) => s.rss);
const lastMinute = samples.filter((s) => s.t >= samples.at(-1).t - 60).map((s) => s.rss);
const firstMinute = samples.filter((s) => s.t <= 60).map((s) => s.rss);
const f = (n) => n.toFixed(1);
console.log(`soak: ${seconds} s, ${connections} connections, ${process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded PostgreSQL'}`);
console.log(
  `  requests ${result.requests.total}, ${f(result.requests.average)} req/s, errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}`,
);
console.log(
  `  answers by status: ${JSON.stringify(Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])))}`,
);
console.log(`  latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
console.log(
  `  RSS MiB: start ${f(rss[0])}, min ${f(Math.min(...rss))}, max ${f(Math.max(...rss))}, end ${f(rss.at(-1))}; ` +
    `mean of first minute ${f(firstMinute.reduce((a, b) => a + b, 0) / firstMinute.length)}, of last minute ${f(lastMinute.reduce((a, b) => a + b, 0) / lastMinute.length)} (${samples.length} samples)`,
);
console.log(`  service exit code after SIGTERM: ${exitCode}`);
const failed = result.errors > 0 || result.timeouts > 0 || result.non2xx > 0 || exitCode !== 0;
console.log(failed ? 'soak FAILED' : 'soak passed: zero errors');
process.exit(failed ? 1 : 0);
