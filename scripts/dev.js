'use strict';
/*
 * `pnpm dev`: the service in watch mode. Builds when stale, then keeps tsc compiling the app and the
 * workspace libraries it uses, and runs the service through apps/api/start.sh with node --watch, which
 * restarts it whenever a file it loaded is rewritten. Ctrl-C stops everything.
 */
const { spawn } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { createInterface } = require('node:readline');

const ROOT = join(__dirname, '..');
const USAGE = `Usage: pnpm dev
  Runs the service (development mode unless NODE_ENV says otherwise, same variables as pnpm start),
  recompiling apps/api and the libraries it uses on every change and restarting the service.`;

const readPackage = (dir) => JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8'));

/** apps/api and the workspace libraries it depends on, directly or not: the folders to compile. */
function watchedPackages() {
  const folders = new Map(['contracts', 'http-errors', 'client'].map((name) => [readPackage(`libs/${name}`).name, `libs/${name}`]));
  const seen = new Set(['apps/api']);
  const queue = ['apps/api'];
  while (queue.length > 0) {
    for (const [name, version] of Object.entries(readPackage(queue.shift()).dependencies ?? {})) {
      const folder = folders.get(name);
      if (version.startsWith('workspace:') && folder && !seen.has(folder)) {
        seen.add(folder);
        queue.push(folder);
      }
    }
  }
  return [...seen];
}

function main() {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const children = [];
  const stop = () => {
    for (const child of children) child.kill('SIGTERM');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const build = spawn(process.execPath, [join(__dirname, 'build-if-stale.js')], { cwd: ROOT, stdio: 'inherit' });
  build.on('exit', (code) => {
    if (code !== 0) process.exit(code ?? 1);
    const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
    const packages = watchedPackages();
    let waiting = packages.length;
    for (const dir of packages) {
      // Each package's own build command (`tsc -p <tsconfig>`), in watch mode.
      const project = /tsc -p (\S+)/.exec(readPackage(dir).scripts.build)[1];
      const watcher = spawn(process.execPath, [tsc, '-p', project, '--watch', '--preserveWatchOutput'], {
        cwd: join(ROOT, dir),
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(watcher);
      let ready = false;
      createInterface({ input: watcher.stdout }).on('line', (line) => {
        // tsc's own progress lines are noise; its errors are not.
        if (/error TS\d+/.test(line)) process.stderr.write(`${dir}: ${line}\n`);
        // The service starts once every first compile is written: else it would restart at once.
        if (!ready && /Watching for file changes/.test(line)) {
          ready = true;
          waiting -= 1;
          if (waiting === 0) startService();
        }
      });
    }
  });

  function startService() {
    const service = spawn(join(ROOT, 'apps', 'api', 'start.sh'), ['--watch'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { NODE: process.execPath, ...process.env },
    });
    children.push(service);
    service.on('exit', (code) => {
      for (const child of children) child.kill('SIGTERM');
      process.exit(code ?? 0);
    });
  }
}

main();
