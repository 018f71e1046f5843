'use strict';
/*
 * `pnpm --filter @petstore/bench run profile [list|get|create]`: drives one operation against the service
 * running under `node --cpu-prof` and leaves the .cpuprofile in bench/results/ (open it in Chrome DevTools),
 * printing the functions with the most self time.
 */
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const {
  SERVICE,
  CURSOR_SECRET,
  METRICS_TOKEN,
  handleArguments,
  buildIfStale,
  createDatabase,
  seed,
  startServer,
  operations,
  drive,
} = require('./lib');

const OPERATIONS = ['list', 'get', 'create'];
const [op = 'list'] = handleArguments(
  `Usage: pnpm --filter @petstore/bench run profile [list|get|create]   (node bench/profile.js)
  Drives one operation (default list) for 10 s against the service under node --cpu-prof, on a database of
  its own on DATABASE_URL's server, leaves the .cpuprofile in bench/results/ and prints the functions with
  the most self time. The service listens on a free port.`,
  process.argv.slice(2),
  OPERATIONS,
);

async function main() {
  buildIfStale();
  const dir = join(__dirname, 'results');
  const database = await createDatabase('profile');
  try {
    const service = await startServer({
      name: 'service',
      ...SERVICE,
      args: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
      env: { ...SERVICE.env, NODE_ENV: 'production', DATABASE_URL: database.url, CURSOR_SECRET, METRICS_TOKEN, RATE_LIMIT_PER_MINUTE: '0' },
    });
    await seed(database.url, 5000);
    const result = await drive(service.baseUrl, operations(5000)[op], { connections: 10, duration: 10 });
    console.log(`${op}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`);
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
  const dt = new Map();
  profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  let total = 0;
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.replace(/.*node_modules\/\.pnpm\//, '')}:${lineNumber + 1}`;
    const time = dt.get(node.id) ?? 0;
    total += time;
    self.set(key, (self.get(key) ?? 0) + time);
  }
  console.log(`profile: ${file}\nself time, top 30:`);
  for (const [key, time] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(`${((100 * time) / total).toFixed(1).padStart(5)}%  ${key}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
