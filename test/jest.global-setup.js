const { spawn } = require('node:child_process');
const { once } = require('node:events');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createInterface } = require('node:readline');
const { watchProcesses } = require('./jest.processes');

const BIN = join(__dirname, '..', 'apps', 'api', 'dist', 'bin');
const EMBEDDED_SERVER = join(BIN, 'embedded-server.js');

/**
 * Starts watching the processes the suites start (checked by jest.global-teardown.js). Without
 * DATABASE_URL, for runs of the suites under test/, also initialises one embedded PostgreSQL data folder,
 * migrated, that every suite's database copies (support/test-database.ts): opening a copy costs 0.8 s of
 * CPU, a fresh one 3 s, and migrating one 0.3 s more.
 */
module.exports = async function globalSetup(_globalConfig, projectConfig) {
  globalThis.petstoreProcesses = watchProcesses();
  const suitesUnderTest = projectConfig.roots.some((root) => /[/\\]test([/\\]|$)/.test(root));
  if (process.env.DATABASE_URL || !suitesUnderTest) return;
  const root = mkdtempSync(join(tmpdir(), 'petstore-test-run-'));
  const template = join(root, 'template');
  const child = spawn(process.execPath, [EMBEDDED_SERVER, template], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const started = await Promise.race([once(createInterface({ input: child.stdout }), 'line'), exited.then(() => undefined)]);
  if (!started) throw new Error(`the embedded PostgreSQL did not initialise ${template}`);
  const { url } = JSON.parse(started[0]);
  const migrate = spawn(process.execPath, [join(BIN, 'migrate.js')], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  migrate.stderr.on('data', (chunk) => (said += chunk));
  const [code] = await once(migrate, 'exit');
  // It stops when its standard input closes, leaving a whole data folder.
  child.stdin.end();
  await exited;
  if (code !== 0) throw new Error(`the migrations failed on ${template}: ${said}`);
  globalThis.petstoreRunDir = root;
  // Read by the workers, which start after this.
  process.env.PETSTORE_TEST_RUN_DIR = root;
};
