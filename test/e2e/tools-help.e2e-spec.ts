import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_SERVER, KEYS_CLI, ROOT, run } from '../support/processes';

/**
 * Every script that takes options answers --help with its usage and exit 0, before doing any work: the
 * database URL given points where nothing listens, so a script that started working would fail.
 */
const NOWHERE = { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere', DATA_DIR: '/nonexistent/petstore-help' };
const node = process.execPath;
const BIN = join(ROOT, 'apps', 'api', 'dist', 'bin');

describe('--help of every script with options', () => {
  it.each([
    ['the benchmark (pnpm bench)', 'pnpm', ['-s', 'bench', '--help']],
    ['bench/run.js', node, ['bench/run.js', '--help']],
    ['bench/soak.mjs', node, ['bench/soak.mjs', '--help']],
    ['the key tool', node, [KEYS_CLI, '--help']],
    ['the key tool through pnpm keys (built when stale, then run)', 'pnpm', ['-s', 'keys', '--help']],
    ['the embedded server', node, [EMBEDDED_SERVER, '--help']],
    ['the embedded initdb', node, [join(BIN, 'embedded-initdb.js'), '--help']],
    ['the migrations (a release step)', node, [join(BIN, 'migrate.js'), '--help']],
    ['scripts/embedded-memory.js', node, ['scripts/embedded-memory.js', '--help']],
  ])('%s', async (_name, command, args) => {
    const result = await run(command, args, NOWHERE);
    // The key tool writes its usage on stderr (its stdout is for keys alone).
    expect({ code: result.code, usage: (result.stdout || result.stderr).split('\n')[0] }).toEqual({
      code: 0,
      usage: expect.stringMatching(/^Usage:/),
    });
  });

  it('refuses an unknown option of a benchmark with exit 2, before any work', async () => {
    const result = await run(node, ['bench/run.js', '--fast'], NOWHERE);
    expect(result).toMatchObject({ code: 2, stderr: 'Unknown argument "--fast" (see --help)\n' });
  });
});

/**
 * tools/build-if-stale.mjs, which `pnpm keys` and `pnpm start` run first, on a workspace of one project: tsc
 * runs when the build is missing or older than a source, and not at all when it is current.
 */
describe('the build before the key tool and the start (tools/build-if-stale.mjs)', () => {
  let dir: string;
  const source = () => join(dir, 'p', 'src', 'a.ts');
  const launch = () => run(node, [join(dir, 'tools', 'build-if-stale.mjs')], {});
  /** As if the last build were a minute old: every source is newer. */
  const ageBuild = () => {
    const past = new Date(Date.now() - 60_000);
    for (const file of [join(dir, 'p', 'dist', 'tsconfig.tsbuildinfo'), join(dir, 'node_modules', '.cache', 'build-if-stale')])
      if (existsSync(file)) utimesSync(file, past, past);
  };
  const BUILDING = 'Building: sources changed since the last build (tsc -b tsconfig.build.json)\n';

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'build-if-stale-'));
    mkdirSync(join(dir, 'p', 'src'), { recursive: true });
    mkdirSync(join(dir, 'tools'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(join(ROOT, 'node_modules', 'typescript'), join(dir, 'node_modules', 'typescript'));
    copyFileSync(join(ROOT, 'tools', 'build-if-stale.mjs'), join(dir, 'tools', 'build-if-stale.mjs'));
    writeFileSync(join(dir, 'pnpm-lock.yaml'), '');
    writeFileSync(join(dir, 'tsconfig.build.json'), JSON.stringify({ files: [], references: [{ path: 'p' }] }));
    const compilerOptions = { composite: true, rootDir: 'src', outDir: 'dist', tsBuildInfoFile: 'dist/tsconfig.tsbuildinfo', types: [] };
    writeFileSync(join(dir, 'p', 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['src'] }));
    writeFileSync(source(), 'export const a = 1;\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('builds when there is no build, then runs no tsc at all while the build is current, silently', async () => {
    expect(await launch()).toEqual({ code: 0, stdout: '', stderr: BUILDING });
    expect(existsSync(join(dir, 'p', 'dist', 'a.js'))).toBe(true);
    // Without TypeScript a run that needed tsc would fail: a current build does not.
    renameSync(join(dir, 'node_modules', 'typescript'), join(dir, 'node_modules', 'typescript-away'));
    try {
      expect(await launch()).toEqual({ code: 0, stdout: '', stderr: '' });
    } finally {
      renameSync(join(dir, 'node_modules', 'typescript-away'), join(dir, 'node_modules', 'typescript'));
    }
  });

  it('builds again when a source is newer than the build, and only once', async () => {
    writeFileSync(source(), 'export const a = 2;\n');
    ageBuild();
    expect(await launch()).toEqual({ code: 0, stdout: '', stderr: BUILDING });
    expect(readFileSync(join(dir, 'p', 'dist', 'a.js'), 'utf8')).toContain('a = 2');
    expect(await launch()).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('does not build for a spec edited alone: the build leaves specs out', async () => {
    const spec = join(dir, 'p', 'src', 'a.spec.ts');
    writeFileSync(spec, 'export const b = 1;\n');
    await launch(); // the new file changed its folder
    writeFileSync(spec, 'export const b = 2;\n');
    const future = new Date(Date.now() + 60_000);
    utimesSync(spec, future, future);
    expect(await launch()).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it("then runs the script it is given in its own process, with that script's arguments (pnpm keys: node tools/build-if-stale.mjs keys.js …)", async () => {
    const script = join(dir, 'show-argv.cjs');
    writeFileSync(script, 'process.stdout.write(JSON.stringify(process.argv.slice(1)));\n');
    const result = await run(node, [join(dir, 'tools', 'build-if-stale.mjs'), script, 'list', '--json'], {});
    expect(result).toMatchObject({ code: 0, stdout: JSON.stringify([script, 'list', '--json']) });
  });

  it("fails with tsc's errors on stderr, nothing on stdout (KEY=$(pnpm -s keys create …) stays empty)", async () => {
    writeFileSync(source(), "export const a: number = 'x';\n");
    ageBuild();
    const result = await launch();
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toContain("src/a.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'.");
  });
});
