import { runOrThrow } from '../support/processes';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const run = (command: string, args: string[], cwd: string) => runOrThrow(command, args, cwd, { timeout: 240000 });
const LIBS = ['contracts', 'client', 'http-errors'];

/** Every file an `exports` entry points at (conditions included), as `package/…` paths in the tarball. */
function exportedFiles(exportsField: Record<string, unknown>): string[] {
  const files: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') files.push(`package/${value.replace(/^\.\//, '')}`);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(exportsField);
  return files;
}

// A fresh clone has no dist/: the tracked files alone are copied, installed offline from the store,
// and packed. Without a prepack that builds, the tarballs would hold no code.
describe('packing the libraries from a fresh clone (no dist/)', () => {
  let clone: string;
  beforeAll(() => {
    clone = mkdtempSync(join(tmpdir(), 'petstore-clone-'));
    const tracked = run('git', ['ls-files', '-z'], ROOT)
      .split('\0')
      .filter((file) => file !== '');
    for (const file of tracked) {
      mkdirSync(dirname(join(clone, file)), { recursive: true });
      try {
        cpSync(join(ROOT, file), join(clone, file));
      } catch {
        // Tracked but deleted in the working tree: a clone of the commit would have it, nothing packs it.
      }
    }
    expect(readdirSync(join(clone, 'libs', 'contracts'))).not.toContain('dist');
    run('pnpm', ['install', '--offline', '--frozen-lockfile', '--filter', './libs/*'], clone);
    // One pnpm run packs the three, two at a time (each prepack is a tsc build).
    run('pnpm', ['--filter', './libs/*', '--recursive', 'pack', '--pack-destination', join(clone, 'packed')], clone);
  }, 400000);
  afterAll(() => rmSync(clone, { recursive: true, force: true }));

  it.each(LIBS)(
    '@petstore/%s packs its built code and declarations for every exports entry',
    (lib) => {
      const out = join(clone, 'packed');
      const tarball = readdirSync(out).find((file) => file.startsWith(`petstore-${lib}-`))!;
      const listed = run('tar', ['tzf', join(out, tarball)], out).split('\n');
      const manifest = JSON.parse(readFileSync(join(ROOT, 'libs', lib, 'package.json'), 'utf8'));
      const expected = exportedFiles(manifest.exports);
      expect(expected).toEqual(expect.arrayContaining(['package/dist/index.js', 'package/dist/index.d.ts']));
      expect(listed).toEqual(expect.arrayContaining(expected));
      const code = listed.filter((file) => /^package\/dist\/.*\.js$/.test(file));
      for (const file of code) expect(listed).toContain(file.replace(/\.js$/, '.d.ts'));
    },
    240000,
  );
});
