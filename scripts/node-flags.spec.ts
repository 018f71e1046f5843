import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The service's node flags (heap and GC settings) are written once, in apps/api/start.sh, and every
 * way of starting the service goes through that file: a copy elsewhere would drift.
 */
const ROOT = join(__dirname, '..');
const LAUNCHER = 'apps/api/start.sh';
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', '.data', 'coverage', 'results', 'artifacts']);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : files(path);
    return entry.isFile() ? [path] : [];
  });
}

describe('the node flags', () => {
  const launcher = readFileSync(join(ROOT, LAUNCHER), 'utf8');
  const execLine = launcher.split('\n').find((line) => line.startsWith('exec '))!;
  const flags = execLine.match(/--[a-z-]+(=\S+)?/g) ?? [];

  it('are in the launcher, before the extra options and the service', () => {
    expect(flags.length).toBeGreaterThanOrEqual(3);
    expect(execLine.indexOf(flags.at(-1)!)).toBeLessThan(execLine.indexOf('"$@"'));
    expect(execLine).toMatch(/"\$@" "\$\(dirname "\$0"\)\/dist\/bin\/main\.js"$/);
  });

  it('are written nowhere else (prose in Markdown aside)', () => {
    const names = flags.map((flag) => flag.split('=')[0]);
    const copies = files(ROOT)
      .filter((file) => !file.endsWith('.md') && statSync(file).size < 1_000_000)
      .filter((file) => names.some((name) => readFileSync(file, 'utf8').includes(name)))
      .map((file) => relative(ROOT, file));
    expect(copies).toEqual([LAUNCHER]);
  });

  it('reach every way of starting the service: pnpm start, the app start script, the image, the benchmarks', () => {
    const script = (pkg: string) => JSON.parse(readFileSync(join(ROOT, pkg, 'package.json'), 'utf8')).scripts.start as string;
    expect(script('.')).toMatch(/(^|&& )apps\/api\/start\.sh$/);
    expect(script('apps/api')).toBe('./start.sh');
    // The image holds the app's package (apps/api, deployed) in its WORKDIR, start.sh included.
    const dockerfile = readFileSync(join(ROOT, 'apps/api/Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^CMD \["\.\/start\.sh"\]$/m);
    expect(dockerfile).toMatch(/^COPY --from=build .*\/deploy\/start\.sh .*\.\/$/m);
    expect(readFileSync(join(ROOT, 'bench/lib.js'), 'utf8')).toContain("const SERVICE = { command: join(ROOT, 'apps', 'api', 'start.sh')");
  });
});
