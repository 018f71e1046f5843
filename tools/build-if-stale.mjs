// `tsc -b tsconfig.build.json`, only when a source changed since the last build: an up-to-date `tsc -b` still
// loads TypeScript and checks every project before each `pnpm keys …`. Silent when current; what tsc prints
// goes to stderr (stdout is for results: KEY=$(pnpm -s keys create …)). `node build-if-stale.mjs <built script>
// args…` then runs that script in this process (one node start less), with its own argv.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// When this script last ran tsc -b: a run that found nothing to emit leaves tsc's own files as they were.
const stamp = join(root, 'node_modules', '.cache', 'build-if-stale');
const mtime = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const tsconfigs = (dir) =>
  readdirSync(dir)
    .filter((name) => /^tsconfig.*\.json$/.test(name))
    .map((name) => join(dir, name));

/** Whether a project's sources (its src/ folders too, specs aside: a deleted file changes its folder), its or the root's
 * tsconfig files or the lockfile are newer than its last build, or it has none. */
function stale() {
  const shared = [...tsconfigs(root), join(root, 'pnpm-lock.yaml')];
  return JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')).references.some(({ path }) => {
    const config = join(root, path.endsWith('.json') ? path : join(path, 'tsconfig.json'));
    const dir = dirname(config);
    const info = JSON.parse(readFileSync(config, 'utf8')).compilerOptions?.tsBuildInfoFile;
    const built = info ? mtime(join(dir, info)) : 0;
    // Specs are left out of the build (tsconfig exclude): one edited alone leaves the build current.
    const names = readdirSync(join(dir, 'src'), { recursive: true }).filter((name) => !name.endsWith('.spec.ts'));
    const sources = [join(dir, 'src'), ...names.map((name) => join(dir, 'src', name))];
    return built === 0 || Math.max(...[...shared, ...tsconfigs(dir), ...sources].map(mtime)) > Math.max(built, mtime(stamp));
  });
}

if (stale()) {
  process.stderr.write('Building: sources changed since the last build (tsc -b tsconfig.build.json)\n');
  const started = new Date();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const { status } = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (status !== 0) process.exit(status ?? 1);
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, '');
  utimesSync(stamp, started, started); // a source saved while tsc ran is newer
}
if (process.argv[2]) {
  process.argv.splice(1, 2, resolve(process.argv[2])); // the script reads its arguments from argv[2] on
  await import(pathToFileURL(process.argv[1]).href);
}
