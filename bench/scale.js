'use strict';
/*
 * `pnpm bench:scale`: is listing flat as the store grows? Two instances of the service (production mode),
 * one on 10,000 pets and one on 1,000,000 (seeded with INSERT … SELECT generate_series), driven in turn
 * (A B A B) with `limit=20&status=sold`, on the first page and on a page deep in the collection (a
 * cursor near the end). Env: DATABASE_URL, BENCH_SMALL, BENCH_LARGE, BENCH_DURATION, BENCH_ROUNDS.
 */
const { join } = require('node:path');
const { Client } = require('pg');
const lib = require('./lib');

lib.handleArguments(`Usage: pnpm bench:scale   (node bench/scale.js)
  Listing as the store grows: two service instances, on BENCH_SMALL and BENCH_LARGE pets, first and deep
  pages, A B A B. Builds first when the build is stale; servers listen on free ports. Results go to bench/results/.
Environment:
  DATABASE_URL       the server (default postgres://postgres@127.0.0.1:5432/postgres)
  BENCH_SMALL        pets in the small store (default 10000)
  BENCH_LARGE        pets in the large store (default 1000000)
  BENCH_DURATION     seconds per measured run (default 10)
  BENCH_ROUNDS       rounds (default 2)
  BENCH_CONNECTIONS  concurrent connections (default 10)`);
lib.buildIfStale();
const { PetCursors } = require(join(lib.ROOT, 'apps/api/dist/pets/pet-cursors'));
const { LIST_BY_STATUS } = require(join(lib.ROOT, 'apps/api/dist/pets/pets.repository'));

const SMALL = Number(process.env.BENCH_SMALL || 10_000);
const LARGE = Number(process.env.BENCH_LARGE || 1_000_000);
const DURATION = Number(process.env.BENCH_DURATION || 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);

/** The pages measured at a store of `size` pets. Seeded statuses go in turn, so `sold` is every id ≡ 0 (mod 3). */
function pages(size) {
  const deepAfter = String(size - 3000 - (size % 3)); // a sold pet 3,000 ids before the end: 50 pages of 20 remain
  const cursor = new PetCursors({ auth: { cursorSecrets: [lib.CURSOR_SECRET] } }).issue(deepAfter, 'sold');
  return {
    first: { method: 'GET', path: '/v1/pets?limit=20&status=sold' },
    deep: { method: 'GET', path: `/v1/pets?limit=20&status=sold&cursor=${cursor}` },
  };
}

/** What PostgreSQL does for a page at the large size: plan shape, buffers touched, execution time. */
async function explain(url, afterId) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    // The service's own statement for `status=sold`, with the values of the page.
    const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${LIST_BY_STATUS.get('sold').text}`, [afterId, 21]);
    const [{ Plan: plan, 'Execution Time': ms }] = rows[0]['QUERY PLAN'];
    const scan = plan.Plans?.[0] ?? plan;
    return {
      node: `${scan['Node Type']} using ${scan['Index Name']}`,
      rowsRead: scan['Actual Rows'],
      sharedBuffers: plan['Shared Hit Blocks'] + plan['Shared Read Blocks'],
      executionMs: ms,
    };
  } finally {
    await client.end();
  }
}

async function main() {
  const started = new Date().toISOString();
  const host = lib.machine();
  const sizes = { small: SMALL, large: LARGE };
  const databases = {};
  const servers = {};
  try {
    for (const [label, size] of Object.entries(sizes)) {
      databases[label] = await lib.createDatabase(`scale_${label}`);
      servers[label] = await lib.startServer({
        name: `service (${size} pets)`,
        ...lib.SERVICE,
        env: lib.serviceEnv(databases[label].url, { RATE_LIMIT_PER_MINUTE: '0' }),
      });
      const seeding = Date.now();
      await lib.seed(databases[label].url, size);
      console.error(`seeded ${size} pets in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);
    }
    const plans = { first: await explain(databases.large.url, 0), deep: await explain(databases.large.url, LARGE - 3000 - (LARGE % 3)) };
    const runs = {};
    for (const page of ['first', 'deep']) {
      for (const label of Object.keys(sizes))
        await lib.drive(servers[label].baseUrl, pages(sizes[label])[page], { connections: CONNECTIONS, duration: 3 });
      for (let r = 0; r < ROUNDS; r += 1) {
        for (const label of Object.keys(sizes)) {
          const result = await lib.drive(servers[label].baseUrl, pages(sizes[label])[page], { connections: CONNECTIONS, duration: DURATION });
          (runs[`${label} ${page}`] ??= []).push(result);
          console.error(
            `  ${page} page at ${sizes[label]} pets, round ${r + 1}: ${Math.round(result.rps)} req/s, mean ${result.meanUs} µs, p99 ${result.p99Us} µs`,
          );
        }
      }
    }
    const summary = {};
    for (const [key, results] of Object.entries(runs)) {
      summary[key] = {
        rps: lib.round(lib.mean(results.map((x) => x.rps))),
        meanUs: Math.round(lib.mean(results.map((x) => x.meanUs))),
        p99Us: Math.round(lib.mean(results.map((x) => x.p99Us))),
      };
    }
    const ratios = {
      largeFirstVsSmallFirst: lib.round(summary['large first'].meanUs / summary['small first'].meanUs),
      largeDeepVsLargeFirst: lib.round(summary['large deep'].meanUs / summary['large first'].meanUs),
      smallDeepVsSmallFirst: lib.round(summary['small deep'].meanUs / summary['small first'].meanUs),
    };
    console.log(`\nListing as the store grows (limit=20&status=sold, ${CONNECTIONS} connections, ${ROUNDS} x ${DURATION} s, A B A B)`);
    console.log(`machine: ${host.cpus} cpus (${host.cpuModel}), ${host.memoryGiB} GiB, node ${host.node}\n`);
    console.log('pets | page | req/s | mean µs | p99 µs');
    console.log('--- | --- | --- | --- | ---');
    for (const [key, s] of Object.entries(summary)) {
      const [label, page] = key.split(' ');
      console.log(`${sizes[label]} | ${page} | ${Math.round(s.rps)} | ${s.meanUs} | ${s.p99Us}`);
    }
    console.log(
      `\ntime ratios: ${LARGE} vs ${SMALL} pets (first page) ${ratios.largeFirstVsSmallFirst}; deep vs first page at ${LARGE}: ${ratios.largeDeepVsLargeFirst}`,
    );
    console.log(`plans at ${LARGE} pets: first page ${JSON.stringify(plans.first)}; deep page ${JSON.stringify(plans.deep)}`);
    const file = lib.writeResults('scale', {
      started,
      machine: host,
      settings: { small: SMALL, large: LARGE, connections: CONNECTIONS, durationSeconds: DURATION, rounds: ROUNDS },
      summary,
      ratios,
      plans,
      runs,
    });
    console.log(`results: ${file}`);
  } finally {
    for (const server of Object.values(servers)) await server.stop();
    for (const database of Object.values(databases)) await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
