// The OpenAPI document the code generates, written to a temporary file by the built snapshot tool.
const { spawnSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');

/** Builds (`tsc -b`, as `pnpm build`: what is up to date is skipped), then writes the document; returns the file's path, removed at exit. */
function generateDocument() {
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const build = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: ROOT, stdio: ['ignore', 2, 'inherit'] });
  if (build.status !== 0) throw new Error('the build failed');
  const dir = mkdtempSync(join(tmpdir(), 'petstore-openapi-'));
  // The callers are commands that read it before they exit.
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'openapi.json');
  const snapshot = join(ROOT, 'apps', 'api', 'dist', 'bin', 'openapi-snapshot.js');
  const result = spawnSync(process.execPath, [snapshot, '--output', file], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`generating the document failed:\n${result.stderr}`);
  return file;
}

/** The document as data, without `info.version` (it follows the release, not the API). */
function withoutVersion(path) {
  const document = JSON.parse(readFileSync(path, 'utf8'));
  return { ...document, info: { ...document.info, version: undefined } };
}

module.exports = { generateDocument, withoutVersion };
