'use strict';
/*
 * `node scripts/build-if-stale.js`: runs `pnpm run build` only when the build is missing or older than
 * its sources, so `pnpm start` and `pnpm keys` start in a second when nothing changed. Build output goes
 * to stderr: `KEY=$(pnpm -s keys create …)` must capture the key alone.
 */
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = join(__dirname, '..');
const USAGE = `Usage: node scripts/build-if-stale.js [--check]
  Builds the workspace (pnpm run build) when a package's build is missing or older than its sources.
  --check  only says whether it is stale (exit 1) or up to date (exit 0); builds nothing`;

/** The workspace packages that are built: every folder of apps/ and libs/ with a build script. */
function builtPackages(root) {
  return ['apps', 'libs'].flatMap((group) => {
    const dir = join(root, group);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .map((name) => join(dir, name))
      .filter((pkg) => existsSync(join(pkg, 'package.json')) && JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).scripts?.build);
  });
}

/** Every file under `dir`, recursively. */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/**
 * Why the build must run, or undefined when it is up to date. A package's build is its entry file (the
 * `main` of its package.json; tsc rewrites every output on each build); it is stale when missing or older
 * than any of the package's inputs: its sources (specs aside: the build skips them), its package.json and
 * tsconfig files, and the shared tsconfig.base.json.
 */
function staleReason(root = ROOT) {
  const shared = join(root, 'tsconfig.base.json');
  for (const pkg of builtPackages(root)) {
    const main = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).main ?? './dist/index.js';
    const output = join(pkg, main);
    if (!existsSync(output)) return `no build yet (${relative(root, output)} is missing)`;
    const built = statSync(output).mtimeMs;
    const inputs = [
      ...filesUnder(join(pkg, 'src')).filter((file) => !file.endsWith('.spec.ts')),
      ...readdirSync(pkg)
        .filter((name) => name === 'package.json' || /^tsconfig.*\.json$/.test(name))
        .map((name) => join(pkg, name)),
      ...(existsSync(shared) ? [shared] : []),
    ];
    const newer = inputs.find((file) => statSync(file).mtimeMs > built);
    if (newer) return `${relative(root, newer)} changed after the last build`;
  }
  return undefined;
}

function main(argv) {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const unknown = argv.find((arg) => arg !== '--check');
  if (unknown) {
    process.stderr.write(`Unknown option "${unknown}" (see: node scripts/build-if-stale.js --help)\n`);
    return 2;
  }
  const reason = staleReason();
  if (!reason) return 0;
  process.stderr.write(`build: ${reason}\n`);
  if (argv.includes('--check')) return 1;
  const build = spawnSync('pnpm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', process.stderr, 'inherit'] });
  return build.status ?? 1;
}

if (require.main === module) process.exit(main(process.argv.slice(2)));

module.exports = { staleReason };
