import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { staleReason } = require('./build-if-stale.js') as { staleReason(root: string): string | undefined };

/** A workspace in a temporary folder: apps/api and one library, each file with the age it is given. */
describe('the build is stale (pnpm start builds first) when', () => {
  let root: string;
  const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));
  const file = (path: string, minutes: number, text = '') => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    utimesSync(full, at(minutes), at(minutes));
  };
  const pkg = (dir: string, main: string, minutes = 0) =>
    file(`${dir}/package.json`, minutes, JSON.stringify({ main, scripts: { build: 'tsc -p tsconfig.json' } }));

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'petstore-stale-'));
    file('tsconfig.base.json', 0, '{}');
    pkg('apps/api', './dist/bin/main.js');
    file('apps/api/tsconfig.json', 0, '{}');
    file('apps/api/src/bin/main.ts', 1);
    file('apps/api/src/pets/pets.service.ts', 1);
    file('apps/api/dist/bin/main.js', 10);
    pkg('libs/contracts', './dist/index.js');
    file('libs/contracts/tsconfig.json', 0, '{}');
    file('libs/contracts/src/index.ts', 1);
    file('libs/contracts/dist/index.js', 10);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is not when every build is newer than its sources', () => {
    expect(staleReason(root)).toBeUndefined();
  });

  it('a build is missing', () => {
    rmSync(join(root, 'libs/contracts/dist'), { recursive: true });
    expect(staleReason(root)).toBe('no build yet (libs/contracts/dist/index.js is missing)');
  });

  it("an app's source changed after its build, however deep", () => {
    file('apps/api/src/pets/pets.service.ts', 11);
    expect(staleReason(root)).toBe('apps/api/src/pets/pets.service.ts changed after the last build');
  });

  it("a library's source changed after its build", () => {
    file('libs/contracts/src/index.ts', 11);
    expect(staleReason(root)).toBe('libs/contracts/src/index.ts changed after the last build');
  });

  it('a package.json, a tsconfig or the shared tsconfig.base.json changed', () => {
    pkg('libs/contracts', './dist/index.js', 11);
    expect(staleReason(root)).toBe('libs/contracts/package.json changed after the last build');
    pkg('libs/contracts', './dist/index.js', 0);
    file('apps/api/tsconfig.json', 11, '{}');
    expect(staleReason(root)).toBe('apps/api/tsconfig.json changed after the last build');
    file('apps/api/tsconfig.json', 0, '{}');
    file('tsconfig.base.json', 11, '{}');
    expect(staleReason(root)).toBe('tsconfig.base.json changed after the last build');
  });

  it('but not when only a spec changed (the build leaves specs out), nor a package without a build script', () => {
    file('apps/api/src/pets/pets.service.spec.ts', 11);
    file('libs/notes/package.json', 0, JSON.stringify({ main: './dist/index.js' }));
    file('libs/notes/src/index.ts', 11);
    expect(staleReason(root)).toBeUndefined();
  });
});
