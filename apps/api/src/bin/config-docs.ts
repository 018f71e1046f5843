import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderEnvExample, withConfigTable } from '../config/config-docs';

/** `pnpm config:docs`: writes the README's configuration table and `.env.example` from the registry. */
const root = join(__dirname, '..', '..', '..', '..');
const readme = join(root, 'README.md');
writeFileSync(readme, withConfigTable(readFileSync(readme, 'utf8')));
writeFileSync(join(root, '.env.example'), renderEnvExample());
console.log('Wrote the configuration table of README.md and .env.example');
