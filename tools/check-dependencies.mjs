#!/usr/bin/env node
// Fails when a workspace package lists a runtime dependency its sources never import (`pnpm lint` runs it).
// A dependency that is loaded without an import (a peer another package requires by name) is listed in
// LOADED_BY_NAME with the reason; everything else must appear in an import, a require() or an import().
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const PACKAGES = ['apps/api', 'libs/contracts', 'libs/http-errors', 'libs/client', 'bench'];

const LOADED_BY_NAME = {
  'apps/api': {
    '@fastify/static': '@nestjs/swagger requires it by name to serve the Swagger UI on Fastify',
    passport: 'peer of @nestjs/passport, which requires it by name',
    rxjs: 'peer of @nestjs/common and @nestjs/core, which require it by name',
    ioredis: 'peer of @nest-lab/throttler-storage-redis, which requires it by name',
    'pino-http': 'peer of nestjs-pino, which requires it by name',
  },
};

function sources(dir) {
  const found = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'results') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...sources(path));
    else if (/\.(ts|js|mjs|cjs)$/.test(entry) && !/\.spec\.ts$/.test(entry)) found.push(path);
  }
  return found;
}

/** The package names a file imports: `from 'x'`, `import 'x'`, `require('x')`, `import('x')`. */
export function importedPackages(text) {
  const names = new Set();
  for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)) {
    if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return names;
}

export function unusedDependencies(packageDir) {
  const manifest = JSON.parse(readFileSync(join(ROOT, packageDir, 'package.json'), 'utf8'));
  const srcDir = packageDir === 'bench' ? join(ROOT, packageDir) : join(ROOT, packageDir, 'src');
  const used = new Set();
  for (const file of sources(srcDir)) for (const name of importedPackages(readFileSync(file, 'utf8'))) used.add(name);
  const allowed = LOADED_BY_NAME[packageDir] ?? {};
  return Object.keys(manifest.dependencies ?? {}).filter((name) => !used.has(name) && !(name in allowed));
}

let failed = false;
for (const dir of PACKAGES) {
  for (const name of unusedDependencies(dir)) {
    console.error(`${relative(ROOT, join(ROOT, dir, 'package.json'))}: "${name}" is a dependency but no source imports it`);
    failed = true;
  }
}
if (failed) process.exit(1);
console.log(`dependencies: every runtime dependency of ${PACKAGES.join(', ')} is imported`);
