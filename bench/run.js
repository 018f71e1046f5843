'use strict';
/*
 * `pnpm bench`: the service (production mode, built from this tree) against the bare Fastify + pg
 * baseline, or against the same service with other settings (--versus-env), each on its own database of
 * the same PostgreSQL server, driven in rounds A B, B A, … so that noise from the machine falls on both.
 * Besides req/s and latency, each side's CPU time per request, from /proc/<pid>/stat.
 * Settings: the usage below.
 */
const lib = require('./lib');

lib.handleArguments(
  `Usage: pnpm bench   (node bench/run.js)
  The service (production mode, as pnpm start runs it) against a bare Fastify + pg baseline, A B B A, on
  databases of their own on a PostgreSQL server; about 3.5 minutes with the defaults. Reports req/s, latency
  and CPU time per request of each side's processes (/proc/<pid>/stat), and their ratios per round. Builds first when
  the build is stale. Servers listen on free ports chosen at run time. Results go to bench/results/.
Environment:
  DATABASE_URL       the server (default postgres://postgres@127.0.0.1:5432/postgres)
  BENCH_PETS         pets seeded (default 5000)
  BENCH_DURATION     seconds per measured run (default 10)
  BENCH_ROUNDS       rounds per side and operation (default 3)
  BENCH_CONNECTIONS  concurrent connections (default 10)
  BENCH_OPS          operations, comma-separated (default list,get,create)
  WEB_CONCURRENCY    service processes (default 1)
Options:
  --service-env NAME=VALUE   adds a variable to the service's environment (repeatable)
  --versus-env NAME=VALUE    replaces the baseline by the same service with this variable on top
                             (repeatable): pnpm bench -- --versus-env METRICS_ENABLED=false`,
  lib.withoutEnvOptions(process.argv.slice(2)),
);

const PETS = Number(process.env.BENCH_PETS || 5000);
const DURATION = Number(process.env.BENCH_DURATION || 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);

const SERVICE_EXTRA = lib.envOptions(process.argv.slice(2), '--service-env');
const VERSUS_EXTRA = lib.envOptions(process.argv.slice(2), '--versus-env');
const VERSUS = Object.keys(VERSUS_EXTRA).length > 0;
const describe = (env) =>
  Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
const B_LABEL = VERSUS ? `the same service with ${describe(VERSUS_EXTRA)}` : 'bare Fastify + pg baseline';

async function main() {
  lib.buildIfStale();
  const started = new Date().toISOString();
  const host = lib.machine();
  const databases = { service: await lib.createDatabase('service'), baseline: await lib.createDatabase('baseline') };
  const servers = [];
  try {
    // The service's migrations create both schemas, so the baseline queries the very same table and indexes.
    const serviceEnv = (url) => ({
      ...lib.SERVICE.env,
      NODE_ENV: 'production',
      DATABASE_URL: url,
      CURSOR_SECRET: lib.CURSOR_SECRET,
      METRICS_TOKEN: lib.METRICS_TOKEN,
      RATE_LIMIT_PER_MINUTE: '0',
      ...(process.env.WEB_CONCURRENCY && { WEB_CONCURRENCY: process.env.WEB_CONCURRENCY }),
      ...SERVICE_EXTRA,
    });
    const migrator = await lib.startServer({ name: 'migrations', ...lib.SERVICE, env: serviceEnv(databases.baseline.url) });
    await migrator.stop();
    const service = await lib.startServer({ name: 'service', ...lib.SERVICE, env: serviceEnv(databases.service.url) });
    servers.push(service);
    const baseline = VERSUS
      ? await lib.startServer({ name: 'versus', ...lib.SERVICE, env: { ...serviceEnv(databases.baseline.url), ...VERSUS_EXTRA } })
      : await lib.startServer({ name: 'baseline', ...lib.BASELINE, env: { DATABASE_URL: databases.baseline.url } });
    servers.push(baseline);
    await lib.seed(databases.service.url, PETS);
    await lib.seed(databases.baseline.url, PETS);

    const only = process.env.BENCH_OPS ? process.env.BENCH_OPS.split(',') : undefined;
    const ops = Object.fromEntries(Object.entries(lib.operations(PETS)).filter(([op]) => !only || only.includes(op)));
    const runs = {};
    for (const [op, request] of Object.entries(ops)) {
      runs[op] = { service: [], baseline: [] };
      for (const server of [service, baseline]) await lib.drive(server.baseUrl, request, { connections: CONNECTIONS, duration: 3 }); // warm-up
      for (let round = 0; round < ROUNDS; round += 1) {
        const sides = [
          ['service', service],
          ['baseline', baseline],
        ];
        // A B, then B A: whichever side runs second in a round (a warmer or a busier machine) alternates.
        if (round % 2 === 1) sides.reverse();
        for (const [label, server] of sides) {
          const result = await lib.drive(server.baseUrl, request, { connections: CONNECTIONS, duration: DURATION }, server);
          runs[op][label].push(result);
          console.error(
            `  ${op} ${label} round ${round + 1}: ${Math.round(result.rps)} req/s, ${result.cpuUsPerRequest} µs CPU/req, p50 ${result.p50} ms, p99 ${result.p99} ms`,
          );
        }
      }
    }

    const summary = {};
    for (const [op, byServer] of Object.entries(runs)) {
      const of = (label, key) => lib.round(lib.mean(byServer[label].map((r) => r[key])));
      summary[op] = {
        service: { rps: of('service', 'rps'), p50: of('service', 'p50'), p99: of('service', 'p99') },
        baseline: { rps: of('baseline', 'rps'), p50: of('baseline', 'p50'), p99: of('baseline', 'p99') },
      };
      summary[op].throughputRatio = lib.round(summary[op].service.rps / summary[op].baseline.rps);
      summary[op].p99Ratio = lib.round(summary[op].service.p99 / summary[op].baseline.p99);
      // Paired within each round, so a busy spell of the machine weighs on one ratio, not on one side.
      const ratios = (key) => byServer.service.map((s, i) => s[key] / byServer.baseline[i][key]);
      summary[op].rpsRatios = spread(ratios('rps'));
      summary[op].cpuPerRequestRatios = spread(ratios('cpuUsPerRequest'));
      summary[op].service.cpuUsPerRequest = of('service', 'cpuUsPerRequest');
      summary[op].baseline.cpuUsPerRequest = of('baseline', 'cpuUsPerRequest');
    }
    const peakRssMb = service.peakRssMb();
    const baselinePeakRssMb = baseline.peakRssMb();

    if (Object.keys(SERVICE_EXTRA).length > 0) console.log(`\nservice run with ${describe(SERVICE_EXTRA)}`);
    console.log(
      `\nPet Store service vs ${B_LABEL}, shown as "baseline" (${PETS} pets, ${CONNECTIONS} connections, ${ROUNDS} x ${DURATION} s per side, A B B A)`,
    );
    console.log(`machine: ${host.cpus} cpus (${host.cpuModel}), ${host.memoryGiB} GiB, node ${host.node}\n`);
    console.log('operation | service req/s | baseline req/s | ratio | service p50/p99 ms | baseline p50/p99 ms | p99 ratio');
    console.log('--- | --- | --- | --- | --- | --- | ---');
    for (const [op, s] of Object.entries(summary)) {
      console.log(
        `${op} | ${Math.round(s.service.rps)} | ${Math.round(s.baseline.rps)} | ${s.throughputRatio} | ${s.service.p50} / ${s.service.p99} | ${s.baseline.p50} / ${s.baseline.p99} | ${s.p99Ratio}`,
      );
    }
    console.log(
      '\nper-round ratios service / baseline: mean (min–max)\noperation | req/s | CPU per request | service CPU µs/req | baseline CPU µs/req',
    );
    console.log('--- | --- | --- | --- | ---');
    const show = ({ mean: m, min, max }) => `${m} (${min}–${max})`;
    for (const [op, s] of Object.entries(summary)) {
      console.log(`${op} | ${show(s.rpsRatios)} | ${show(s.cpuPerRequestRatios)} | ${s.service.cpuUsPerRequest} | ${s.baseline.cpuUsPerRequest}`);
    }
    console.log(`\nservice peak RSS: ${peakRssMb} MB (baseline: ${baselinePeakRssMb} MB)`);

    const file = lib.writeResults('bench', {
      started,
      machine: host,
      settings: {
        pets: PETS,
        connections: CONNECTIONS,
        durationSeconds: DURATION,
        rounds: ROUNDS,
        webConcurrency: process.env.WEB_CONCURRENCY ?? null,
        serviceEnv: SERVICE_EXTRA,
        versusEnv: VERSUS ? VERSUS_EXTRA : null,
      },
      summary,
      peakRssMb,
      baselinePeakRssMb,
      runs,
    });
    console.log(`results: ${file}`);
  } finally {
    for (const server of servers) await server.stop();
    await databases.service.drop();
    await databases.baseline.drop();
  }
}

function spread(values) {
  return {
    mean: lib.round(lib.mean(values), 3),
    min: lib.round(Math.min(...values), 3),
    max: lib.round(Math.max(...values), 3),
    values: values.map((v) => lib.round(v, 3)),
  };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
