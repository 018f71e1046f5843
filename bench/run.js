'use strict';
/*
 * `pnpm bench`: the service (production mode, built from this tree) against two yardsticks, the same-work
 * server (bare Fastify + pg plus the service's log line, headers and metrics) and the bare one, or against
 * the same service with other settings (--versus-env). The service has a database of its own on the same
 * PostgreSQL server; sides are driven in rounds whose order turns, so that noise from the machine falls on
 * all. Besides req/s and latency, each side's CPU time per request, from /proc/<pid>/stat.
 * Settings: the usage below.
 */
const lib = require('./lib');
const parity = require('./parity');

lib.handleArguments(
  `Usage: pnpm bench   (node bench/run.js)
  The service (production mode, as pnpm start runs it) against the same-work yardstick (bare Fastify + pg
  giving the service's answers, checked first: validation, Error bodies, cursor and Link, deprecation
  headers; plus one pino line, helmet's headers, X-Request-Id, RateLimit headers and prom-client series
  per answer) and the bare Fastify + pg one, in rounds whose order turns, on a PostgreSQL server; about
  5 minutes with the defaults. Reports req/s, latency and CPU time per request of each side's processes
  (/proc/<pid>/stat), and the service's ratios to each yardstick per round. Builds first when the build
  is stale. Servers listen on free ports chosen at run time. Results go to bench/results/.
Environment:
  DATABASE_URL       the server (default postgres://postgres@127.0.0.1:5432/postgres)
  BENCH_PETS         pets seeded (default 5000)
  BENCH_DURATION     seconds per measured run (default 10)
  BENCH_ROUNDS       rounds per side and operation (default 3)
  BENCH_CONNECTIONS  concurrent connections (default 10)
  BENCH_OPS          operations, comma-separated (default list,get,create)
Options:
  --service-env NAME=VALUE   adds a variable to the service's environment (repeatable)
  --versus-env NAME=VALUE    replaces the yardsticks by the same service with this variable on top
                             (repeatable): pnpm bench -- --versus-env METRICS_ENABLED=false; {database} in
                             a value is that side's database: --versus-env DATABASE_URL=postgres://…:6432/{database}`,
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
const B_LABEL = VERSUS ? `the same service with ${describe(VERSUS_EXTRA)}` : 'the same-work and the bare Fastify + pg yardsticks';

async function main() {
  lib.buildIfStale();
  const started = new Date().toISOString();
  const host = lib.machine();
  const databases = { service: await lib.createDatabase('service'), baseline: await lib.createDatabase('baseline') };
  const servers = [];
  try {
    // The service's migrations create both schemas, so the baseline queries the very same table and indexes.
    const serviceEnv = (url) => lib.serviceEnv(url, SERVICE_EXTRA);
    const migrator = await lib.startServer({ name: 'migrations', ...lib.SERVICE, env: serviceEnv(databases.baseline.url) });
    await migrator.stop();
    const service = await lib.startServer({ name: 'service', ...lib.SERVICE, env: serviceEnv(databases.service.url) });
    servers.push(service);
    const sides = [['service', service]];
    if (VERSUS) {
      // `{database}` in a value is the versus side's database, e.g. a URL through PgBouncer to it.
      const database = new URL(databases.baseline.url).pathname.slice(1);
      const extra = Object.fromEntries(Object.entries(VERSUS_EXTRA).map(([name, value]) => [name, value.replaceAll('{database}', database)]));
      const versus = await lib.startServer({ name: 'versus', ...lib.SERVICE, env: { ...serviceEnv(databases.baseline.url), ...extra } });
      sides.push(['versus', versus]);
    } else {
      for (const [label, yardstick] of [
        ['same-work', lib.SAME_WORK],
        ['bare', lib.BASELINE],
      ]) {
        const server = await lib.startServer({ name: label, ...yardstick, env: { DATABASE_URL: databases.baseline.url } });
        sides.push([label, server]);
      }
    }
    servers.push(...sides.slice(1).map(([, server]) => server));
    await lib.seed(databases.service.url, PETS);
    await lib.seed(databases.baseline.url, PETS);
    if (!VERSUS) {
      // A yardstick that answered otherwise would not be doing the same work: the run stops before measuring.
      const [, sameWork] = sides.find(([label]) => label === 'same-work');
      const differences = await parity.differences(service.baseUrl, sameWork.baseUrl, lib.AUTH);
      if (differences.length > 0) throw new Error(`the same-work yardstick answers otherwise than the service:\n${differences.join('\n')}`);
    }

    const only = process.env.BENCH_OPS ? process.env.BENCH_OPS.split(',') : undefined;
    const ops = Object.fromEntries(Object.entries(lib.operations(PETS)).filter(([op]) => !only || only.includes(op)));
    const runs = {};
    for (const [op, request] of Object.entries(ops)) {
      runs[op] = Object.fromEntries(sides.map(([label]) => [label, []]));
      for (const [, server] of sides) await lib.drive(server.baseUrl, request, { connections: CONNECTIONS, duration: 3 }); // warm-up
      for (let round = 0; round < ROUNDS; round += 1) {
        // The order turns each round and reverses every other one, so that whichever side runs after
        // another (a warmer or a busier machine) changes from round to round.
        const order = sides.map((_, i) => sides[(i + round) % sides.length]);
        if (round % 2 === 1) order.reverse();
        for (const [label, server] of order) {
          const result = await lib.drive(server.baseUrl, request, { connections: CONNECTIONS, duration: DURATION }, server);
          runs[op][label].push(result);
          console.error(
            `  ${op} ${label} round ${round + 1}: ${Math.round(result.rps)} req/s, ${result.cpuUsPerRequest} µs CPU/req, p50 ${result.p50Us} µs, p99 ${result.p99Us} µs`,
          );
        }
      }
    }

    const labels = sides.map(([label]) => label);
    const summary = {};
    for (const [op, bySide] of Object.entries(runs)) {
      const of = (label, key) => lib.round(lib.mean(bySide[label].map((r) => r[key])));
      summary[op] = Object.fromEntries(
        labels.map((label) => [
          label,
          { rps: of(label, 'rps'), p50Us: of(label, 'p50Us'), p99Us: of(label, 'p99Us'), cpuUsPerRequest: of(label, 'cpuUsPerRequest') },
        ]),
      );
      // Paired within each round, so a busy spell of the machine weighs on one ratio, not on one side.
      summary[op].ratios = Object.fromEntries(
        labels.slice(1).map((label) => {
          const ratios = (key) => spread(bySide.service.map((s, i) => s[key] / bySide[label][i][key]));
          return [label, { rps: ratios('rps'), cpuPerRequest: ratios('cpuUsPerRequest'), p50: ratios('p50Us'), p99: ratios('p99Us') }];
        }),
      );
    }
    const peakRssMb = Object.fromEntries(sides.map(([label, server]) => [label, server.peakRssMb()]));

    if (Object.keys(SERVICE_EXTRA).length > 0) console.log(`\nservice run with ${describe(SERVICE_EXTRA)}`);
    console.log(
      `\nPet Store service vs ${B_LABEL} (${PETS} pets, ${CONNECTIONS} connections, ${ROUNDS} x ${DURATION} s per side, order turned each round)`,
    );
    console.log(`machine: ${host.cpus} cpus (${host.cpuModel}), ${host.memoryGiB} GiB, node ${host.node}\n`);
    console.log(`operation | ${labels.map((l) => `${l} req/s | ${l} p50/p99 µs | ${l} CPU µs/req`).join(' | ')}`);
    console.log(`--- | ${labels.map(() => '--- | --- | ---').join(' | ')}`);
    for (const [op, s] of Object.entries(summary)) {
      console.log(`${op} | ${labels.map((l) => `${Math.round(s[l].rps)} | ${s[l].p50Us} / ${s[l].p99Us} | ${s[l].cpuUsPerRequest}`).join(' | ')}`);
    }
    const show = ({ mean: m, min, max }) => `${m} (${min}–${max})`;
    for (const label of labels.slice(1)) {
      console.log(`\nservice / ${label}, paired per round: mean (min–max)\noperation | CPU per request | req/s | p50 | p99`);
      console.log('--- | --- | --- | --- | ---');
      for (const [op, s] of Object.entries(summary)) {
        const v = s.ratios[label];
        console.log(`${op} | ${show(v.cpuPerRequest)} | ${show(v.rps)} | ${show(v.p50)} | ${show(v.p99)}`);
      }
    }
    console.log(`\npeak RSS MB: ${labels.map((l) => `${l} ${peakRssMb[l]}`).join(', ')}`);

    const file = lib.writeResults('bench', {
      started,
      machine: host,
      settings: {
        pets: PETS,
        connections: CONNECTIONS,
        durationSeconds: DURATION,
        rounds: ROUNDS,
        serviceEnv: SERVICE_EXTRA,
        versusEnv: VERSUS ? VERSUS_EXTRA : null,
      },
      summary,
      peakRssMb,
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
