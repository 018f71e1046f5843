import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from './config';
import { renderEnvExample, withConfigTable } from './config-docs';
import { CONFIG_VARIABLES } from './variables';

const ROOT = join(__dirname, '..', '..', '..', '..');
const SOURCES = join(ROOT, 'apps', 'api', 'src');
const documented = new Set<string>(CONFIG_VARIABLES.map((variable) => variable.name));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Names read from the environment: `process.env.X`, `env.X`, `env['X']`, and the declarations `@Variable({ name: 'X'`. */
export function variablesRead(source: string): string[] {
  const patterns = [/\benv\.([A-Z][A-Z0-9_]*)/g, /\benv\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\]/g, /@Variable\(\{\s*name:\s*'([A-Z][A-Z0-9_]*)'/g];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]));
}

describe('the configuration reference', () => {
  it('lists every variable the service reads', () => {
    const read = new Map<string, string>();
    for (const file of sourceFiles(SOURCES)) for (const name of variablesRead(readFileSync(file, 'utf8'))) read.set(name, file);
    const undocumented = [...read].filter(([name]) => !documented.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(undocumented).toEqual([]);
    // The scan itself works: it sees what the groups declare, in each form.
    expect([...read.keys()]).toEqual(expect.arrayContaining(['PORT', 'HOST', 'CURSOR_SECRET', 'PUBLIC_BASE_URL', 'DATABASE_URL']));
    expect(variablesRead("process.env.FOO; env['BAR']; @Variable({ name: 'BAZ' })")).toEqual(['FOO', 'BAR', 'BAZ']);
  });

  it('documents only variables the service reads', () => {
    const read = new Set(sourceFiles(SOURCES).flatMap((file) => variablesRead(readFileSync(file, 'utf8'))));
    expect([...documented].filter((name) => !read.has(name))).toEqual([]);
  });

  it('README.md and .env.example are what `pnpm config:docs` writes', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toBe(withConfigTable(readme));
    expect(readFileSync(join(ROOT, '.env.example'), 'utf8')).toBe(renderEnvExample());
  });

  it.each(CONFIG_VARIABLES.filter((variable) => variable.default !== undefined).map((variable) => [variable.name, variable.default]))(
    'the documented default of %s is the one the code uses (%s)',
    (name, value) => {
      // DATABASE_POOLING is refused without a server to describe.
      const server = { DATABASE_URL: 'postgres://db/petstore' };
      expect(loadConfig({ ...server, [name]: value }, '/srv')).toEqual(loadConfig(server, '/srv'));
    },
  );
});
