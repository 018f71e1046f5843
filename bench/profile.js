'use strict';
/*
 * `pnpm --filter @petstore/bench run profile [list|get|create]`: drives one operation against the service
 * running under `node --cpu-prof` and leaves the .cpuprofile in bench/results/ (open it in Chrome DevTools),
 * printing the functions with the most self time.
 */
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const lib = require('./lib');

const OPERATIONS = ['list', 'get', 'create'];
const [op = 'list'] = lib.handleArguments(
  `Usage: pnpm --filter @petstore/bench run profile [list|get|create] [--service-env NAME=VALUE]...
  (node bench/profile.js) Drives one operation (default list) for BENCH_DURATION s (default 10) against the
  service under node --cpu-prof, on a database of its own on DATABASE_URL's server, leaves the .cpuprofile
  in bench/results/ and prints the functions with the most self time, then self time by package.
  The service listens on a free port.
Options:
  --service-env NAME=VALUE   adds a variable to the service's environment (repeatable):
                             profile get -- --service-env METRICS_ENABLED=false`,
  lib.withoutEnvOptions(process.argv.slice(2)),
  OPERATIONS,
);
const SERVICE_EXTRA = lib.envOptions(process.argv.slice(2), '--service-env');
const DURATION = Number(process.env.BENCH_DURATION || 10);

async function main() {
  lib.buildIfStale();
  const dir = join(__dirname, 'results');
  const database = await lib.createDatabase('profile');
  let result;
  try {
    const service = await lib.startServer({
      name: 'service',
      ...lib.SERVICE,
      args: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
      env: {
        ...lib.SERVICE.env,
        NODE_ENV: 'production',
        DATABASE_URL: database.url,
        CURSOR_SECRET: lib.CURSOR_SECRET,
        METRICS_TOKEN: lib.METRICS_TOKEN,
        RATE_LIMIT_PER_MINUTE: '1000000', // as in pnpm bench
        ...SERVICE_EXTRA,
      },
    });
    await lib.seed(database.url, 5000);
    result = await lib.drive(service.baseUrl, lib.operations(5000)[op], { connections: 10, duration: DURATION });
    console.log(`${op}: ${Math.round(result.rps)} req/s, p50 ${result.p50Us} µs, p99 ${result.p99Us} µs`);
    await service.stop();
  } finally {
    await database.drop();
  }
  const file = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f))
    .sort()
    .pop();
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const self = new Map();
  const byPackage = new Map();
  const dt = new Map();
  profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  let total = 0;
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.replace(/.*node_modules\/\.pnpm\//, '')}:${lineNumber + 1}`;
    // Shares of the time the process was busy: idle time would only dilute them.
    if (functionName === '(idle)') continue;
    const time = dt.get(node.id) ?? 0;
    total += time;
    self.set(key, (self.get(key) ?? 0) + time);
    const where = packageOf(url) || functionName || '(anonymous)';
    byPackage.set(where, (byPackage.get(where) ?? 0) + time);
  }
  const requests = result.rps * DURATION;
  console.log(`profile: ${file}\nbusy ${Math.round(total / 1000)} ms, ${Math.round(total / requests)} µs per request; self time, top 30:`);
  for (const [key, time] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(`${((100 * time) / total).toFixed(1).padStart(5)}%  ${key}`);
  }
  console.log('self time by package (node: Node.js internals; (program), (garbage collector): V8), top 25:');
  for (const [key, time] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${((100 * time) / total).toFixed(1).padStart(5)}%  ${key}`);
  }
}

/** `prom-client`, `@nestjs/core`, `node:perf_hooks`, `apps/api/dist/…`: where a function's source lies. */
function packageOf(url) {
  const modules = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  const app = /\/(apps|libs)\/([^/]+)\/dist\/(.*)$/.exec(url);
  if (app) return `${app[1]}/${app[2]}/${app[3]}`;
  return url;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
