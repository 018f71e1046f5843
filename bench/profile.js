'use strict';
/*
 * `pnpm --filter @petstore/bench run profile [list|get|create]`: where the service's CPU per request goes
 * beyond the same-work yardstick's. Both run on databases of their own, each is driven alone with the
 * operation while Linux perf samples its CPU time, and every sample is charged to the kernel, the
 * garbage collector or the package of its innermost JavaScript frame (bench/perf-samples.js).
 */
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const lib = require('./lib');
const perf = require('./perf-samples');

const OPERATIONS = ['list', 'get', 'create'];
const [op = 'list'] = lib.handleArguments(
  `Usage: pnpm --filter @petstore/bench run profile [list|get|create] [--service-env NAME=VALUE]...
  (node bench/profile.js) Drives one operation (default list) for BENCH_DURATION s (default 8) against the
  service and then the same-work yardstick, each sampled by Linux perf (cpu-clock, call stacks; needs
  linux-perf and perf_event_paranoid <= 2), and prints µs of CPU per request by who used it, side by side.
  Figures include the sampling's own cost, about a fifth; compare the two columns, not absolute values.
Options:
  --service-env NAME=VALUE   adds a variable to the service's environment (repeatable):
                             profile get -- --service-env METRICS_ENABLED=false`,
  lib.withoutEnvOptions(process.argv.slice(2)),
  OPERATIONS,
);
const SERVICE_EXTRA = lib.envOptions(process.argv.slice(2), '--service-env');
const DURATION = Number(process.env.BENCH_DURATION || 8);
const PETS = 5000;

async function main() {
  if (!perf.perfAvailable()) throw new Error('perf cannot sample here: apt-get install linux-perf (and perf_event_paranoid <= 2)');
  lib.buildIfStale();
  const dir = mkdtempSync(join(tmpdir(), 'petstore-profile-'));
  const databases = { service: await lib.createDatabase('profile'), yardstick: await lib.createDatabase('profile_same') };
  try {
    const serviceEnv = (url) => lib.serviceEnv(url, SERVICE_EXTRA);
    // The service's migrations create the yardstick's schema too.
    await (await lib.startServer({ name: 'migrations', ...lib.SERVICE, env: serviceEnv(databases.yardstick.url) })).stop();
    const sides = [
      ['service', { ...lib.SERVICE, args: perf.NODE_OPTIONS, env: serviceEnv(databases.service.url) }, databases.service],
      [
        'same work',
        { ...lib.SAME_WORK, args: [...perf.NODE_OPTIONS, ...lib.SAME_WORK.args], env: { DATABASE_URL: databases.yardstick.url } },
        databases.yardstick,
      ],
    ];
    const columns = [];
    for (const [label, spec, database] of sides) {
      const file = join(dir, `${label.replace(' ', '-')}.data`);
      const server = await lib.startServer({ name: label, ...spec });
      let requests;
      try {
        await lib.seed(database.url, PETS);
        const request = lib.operations(PETS)[op];
        await lib.drive(server.baseUrl, request, { connections: 10, duration: 3 }); // warm-up
        const sampling = perf.record(server.pid, file);
        const result = await lib.drive(server.baseUrl, request, { connections: 10, duration: DURATION }, server);
        const counts = await sampling.stop();
        requests = result.rps * DURATION;
        const perRequest = (event) => (counts[event] / requests).toFixed(2);
        console.error(
          `  ${op} ${label}: ${Math.round(result.rps)} req/s, ${result.cpuUsPerRequest} µs CPU/req (while sampled), ` +
            `per request ${perRequest('context-switches')} context switches, ${perRequest('ipi:ipi_send_cpu')} interprocessor interrupts sent`,
        );
      } finally {
        await server.stop();
      }
      columns.push({ label, byOwner: perf.attribute(file, requests) });
      perf.removeLeftovers(lib.ROOT, server.pid);
    }
    print(columns);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await databases.service.drop();
    await databases.yardstick.drop();
  }
}

/** One row per owner above 0.2 µs on either side, the largest difference first, and the totals. */
function print([service, yardstick]) {
  const of = (column, owner) => column.byOwner.get(owner) ?? 0;
  const total = (column) => [...column.byOwner.values()].reduce((a, b) => a + b, 0);
  const owners = [...new Set([...service.byOwner.keys(), ...yardstick.byOwner.keys()])]
    .filter((owner) => of(service, owner) >= 0.2 || of(yardstick, owner) >= 0.2)
    .sort((a, b) => of(service, b) - of(yardstick, b) - (of(service, a) - of(yardstick, a)));
  const cell = (value) => value.toFixed(1).padStart(9);
  console.log(`${op}: µs of CPU per request     ${'service'.padStart(9)}${'same work'.padStart(10)}${'more'.padStart(9)}`);
  for (const owner of owners) {
    console.log(`  ${owner.padEnd(30)}${cell(of(service, owner))} ${cell(of(yardstick, owner))}${cell(of(service, owner) - of(yardstick, owner))}`);
  }
  console.log(`  ${'all'.padEnd(30)}${cell(total(service))} ${cell(total(yardstick))}${cell(total(service) - total(yardstick))}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
