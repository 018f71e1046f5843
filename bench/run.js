'use strict';
/*
 * `pnpm bench`: the service (production mode, built from this tree) against the bare Fastify + pg
 * baseline, each on its own database of the same PostgreSQL server, driven alternately A B A B so that
 * noise from the machine falls on both. Env: DATABASE_URL (server), BENCH_PETS, BENCH_DURATION (s),
 * BENCH_ROUNDS, BENCH_CONNECTIONS, WEB_CONCURRENCY (passed to the service).
 */
const { SERVICE, CURSOR_SECRET, createDatabase, seed, startServer, operations, drive, machine, writeResults, mean, round } = require('./lib');

const PETS = Number(process.env.BENCH_PETS || 5000);
const DURATION = Number(process.env.BENCH_DURATION || 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);

async function main() {
  const started = new Date().toISOString();
  const host = machine();
  const databases = { service: await createDatabase('service'), baseline: await createDatabase('baseline') };
  const servers = [];
  try {
    // The service's migrations create both schemas, so the baseline queries the very same table and indexes.
    const serviceEnv = (url) => ({
      NODE_ENV: 'production',
      DATABASE_URL: url,
      CURSOR_SECRET,
      RATE_LIMIT_PER_MINUTE: '0',
      ...(process.env.WEB_CONCURRENCY && { WEB_CONCURRENCY: process.env.WEB_CONCURRENCY }),
    });
    const migrator = await startServer({ name: 'migrations', ...SERVICE, env: serviceEnv(databases.baseline.url), port: 3199 });
    await migrator.stop();
    const service = await startServer({ name: 'service', ...SERVICE, env: serviceEnv(databases.service.url), port: 3101 });
    servers.push(service);
    const baseline = await startServer({ name: 'baseline', script: 'bench/baseline-server.js', env: { DATABASE_URL: databases.baseline.url }, port: 3102 });
    servers.push(baseline);
    await seed(databases.service.url, PETS);
    await seed(databases.baseline.url, PETS);

    const ops = operations(PETS);
    const runs = {};
    for (const [op, request] of Object.entries(ops)) {
      runs[op] = { service: [], baseline: [] };
      for (const server of [service, baseline]) await drive(server.baseUrl, request, { connections: CONNECTIONS, duration: 3 }); // warm-up
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const [label, server] of [['service', service], ['baseline', baseline]]) {
          const result = await drive(server.baseUrl, request, { connections: CONNECTIONS, duration: DURATION });
          runs[op][label].push(result);
          console.error(`  ${op} ${label} round ${round + 1}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`);
        }
      }
    }

    const summary = {};
    for (const [op, byServer] of Object.entries(runs)) {
      const of = (label, key) => round(mean(byServer[label].map((r) => r[key])));
      summary[op] = {
        service: { rps: of('service', 'rps'), p50: of('service', 'p50'), p99: of('service', 'p99') },
        baseline: { rps: of('baseline', 'rps'), p50: of('baseline', 'p50'), p99: of('baseline', 'p99') },
      };
      summary[op].throughputRatio = round(summary[op].service.rps / summary[op].baseline.rps);
      summary[op].p99Ratio = round(summary[op].service.p99 / summary[op].baseline.p99);
    }
    const peakRssMb = service.peakRssMb();
    const baselinePeakRssMb = baseline.peakRssMb();

    console.log(`\nPet Store service vs bare Fastify + pg baseline (${PETS} pets, ${CONNECTIONS} connections, ${ROUNDS} x ${DURATION} s per side, A B A B)`);
    console.log(`machine: ${host.cpus} cpus (${host.cpuModel}), ${host.memoryGiB} GiB, node ${host.node}\n`);
    console.log('operation | service req/s | baseline req/s | ratio | service p50/p99 ms | baseline p50/p99 ms | p99 ratio');
    console.log('--- | --- | --- | --- | --- | --- | ---');
    for (const [op, s] of Object.entries(summary)) {
      console.log(`${op} | ${Math.round(s.service.rps)} | ${Math.round(s.baseline.rps)} | ${s.throughputRatio} | ${s.service.p50} / ${s.service.p99} | ${s.baseline.p50} / ${s.baseline.p99} | ${s.p99Ratio}`);
    }
    console.log(`\nservice peak RSS: ${peakRssMb} MB (baseline: ${baselinePeakRssMb} MB)`);

    const file = writeResults('bench', {
      started,
      machine: host,
      settings: { pets: PETS, connections: CONNECTIONS, durationSeconds: DURATION, rounds: ROUNDS, webConcurrency: process.env.WEB_CONCURRENCY ?? null },
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

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
