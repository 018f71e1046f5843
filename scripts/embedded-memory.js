'use strict';
/*
 * `node scripts/embedded-memory.js`: peak resident memory (VmHWM) of the built service on the embedded
 * PostgreSQL (no DATABASE_URL), started as `pnpm start` starts it (apps/api/start.sh): first on a fresh
 * DATA_DIR (the first start creates the database), then again on the same folder, each after a few
 * hundred requests. Prints one line per start. Build first (pnpm run build).
 */
const { spawn } = require('node:child_process');
const { once } = require('node:events');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createInterface } = require('node:readline');
const { childPids, statusKb } = require('./proc');

const ROOT = join(__dirname, '..');
const KEY = 'memory-key-0123456789abcdefghijklmnop';
const USAGE = `Usage: node scripts/embedded-memory.js [--requests N]
  Starts the built service twice on a fresh embedded database (first start, then restart) and prints the
  peak resident memory of the service (and of the child that creates the database) after N requests (default 300).`;

/** A /proc status field in MB (0 once the process is gone). */
const statusMb = (pid, field) => statusKb(pid, field) / 1024;

/** Samples the peak resident memory of a child of the service every 20 ms: its VmHWM dies with it. */
function watchChildren(pid) {
  let peak = 0;
  const timer = setInterval(() => {
    for (const child of childPids(pid)) peak = Math.max(peak, statusMb(child, 'VmHWM'));
  }, 20);
  return { stop: () => (clearInterval(timer), Math.round(peak)) };
}

async function startOnce(dataDir, requests) {
  const child = spawn(join(ROOT, 'apps/api/start.sh'), [], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE: process.execPath,
      DATA_DIR: dataDir,
      PORT: '0',
      API_KEYS: KEY,
      LOG_FORMAT: 'json',
      RATE_LIMIT_PER_MINUTE: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const children = watchChildren(child.pid);
  const started = Date.now();
  const baseUrl = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /listening on (http:\/\/[^/\s"]+)/.exec(line);
      if (match) resolve(match[1]);
    });
    void exited.then(() => reject(new Error('the service exited before listening')));
  });
  const startMs = Date.now() - started;
  const atStart = Math.round(statusMb(child.pid, 'VmHWM'));
  const childPeak = children.stop();
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  for (let i = 0; i < requests; i += 1) {
    const response =
      i % 3 === 0
        ? await fetch(`${baseUrl}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `Pet ${i}`, categoryId: 1 }) })
        : await fetch(`${baseUrl}/v1/pets?limit=20`, { headers });
    if (response.status >= 300) throw new Error(`request ${i}: ${response.status}`);
    await response.arrayBuffer();
  }
  const afterLoad = Math.round(statusMb(child.pid, 'VmHWM'));
  child.kill('SIGTERM');
  await exited;
  return { startMs, atStart, afterLoad, childPeak };
}

async function main(argv) {
  if (argv.includes('--help') || argv.includes('-h')) return console.log(USAGE);
  const index = argv.indexOf('--requests');
  const requests = index >= 0 ? Number(argv[index + 1]) : 300;
  if (!Number.isInteger(requests) || requests < 0) throw new Error('--requests must be a whole number');
  const dataDir = mkdtempSync(join(tmpdir(), 'petstore-memory-'));
  try {
    for (const label of ['first start (creates the database)', 'restart on the same DATA_DIR']) {
      const { startMs, atStart, afterLoad, childPeak } = await startOnce(dataDir, requests);
      const init = childPeak > 0 ? `; the process that created the database: ${childPeak} MB` : '';
      console.log(`${label}: service peak RSS ${atStart} MB when listening (after ${startMs} ms), ${afterLoad} MB after ${requests} requests${init}`);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error.message);
  process.exit(1);
});
