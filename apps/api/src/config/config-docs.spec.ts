import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderEnvExample, withConfigTable } from './config-docs';
import { VARIABLES } from './environment';

const ROOT = join(__dirname, '..', '..', '..', '..');

describe('the configuration reference', () => {
  it('README.md and .env.example are what `pnpm config:docs` writes from the Environment class', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toBe(withConfigTable(readme));
    expect(readFileSync(join(ROOT, '.env.example'), 'utf8')).toBe(renderEnvExample());
  });

  it('describes every variable', () => {
    expect(VARIABLES.length).toBeGreaterThan(30);
    expect(VARIABLES.filter((variable) => variable.description.length < 10)).toEqual([]);
    expect(new Set(VARIABLES.map((variable) => variable.name)).size).toBe(VARIABLES.length);
  });
});
