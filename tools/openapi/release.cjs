#!/usr/bin/env node
// `pnpm release`: turns the pending changesets into the next version of @petstore/contracts and
// @petstore/client (their package.json and CHANGELOG.md), regenerates the document and the client
// types at that version, writes the API changelog entry from the previous released document to the new
// one, and makes the new document the released one. Nothing is published; review the diff and commit.
const { execFileSync } = require('node:child_process');
const { copyFileSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { ALLOW_LIST, RELEASED_DOCUMENT, ROOT, applyAllowList, compare, readAllowList } = require('./breaking.cjs');
const { changelogEntry } = require('./changelog-markdown.cjs');
const { pendingBump } = require('./changeset-check.cjs');

const SNAPSHOT = join(ROOT, 'docs', 'openapi.json');
const API_CHANGELOG = join(ROOT, 'docs', 'api-changelog.md');
const VERSION_FILE = join(ROOT, 'libs', 'contracts', 'src', 'version.ts');
/** Entries follow this line, newest first; what is above it (the deprecations) is kept as written. */
const ENTRIES_MARK = '<!-- releases: pnpm release adds each one below, newest first -->';

const pnpm = (...args) => execFileSync('pnpm', args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
const version = (dir) => JSON.parse(readFileSync(join(ROOT, 'libs', dir, 'package.json'), 'utf8')).version;

async function main() {
  if (pendingBump(join(ROOT, '.changeset')) === undefined) {
    console.log('release: no pending changeset bumps @petstore/contracts; nothing to release');
    return;
  }
  const allowList = readAllowList();
  pnpm('exec', 'changeset', 'version');
  const contracts = version('contracts');
  // The contracts know their own version without reading files (libs/contracts/src/version.ts).
  const source = readFileSync(VERSION_FILE, 'utf8');
  writeFileSync(VERSION_FILE, source.replace(/CONTRACTS_VERSION = '[^']*'/, `CONTRACTS_VERSION = '${contracts}'`));
  pnpm('run', 'openapi:snapshot');
  pnpm('run', 'client:generate');

  const { breaks, changelog } = await compare(RELEASED_DOCUMENT, SNAPSHOT);
  const { allowed, refused } = applyAllowList(breaks, allowList);
  if (refused.length > 0) throw new Error(`breaking changes not in the allow-list:\n${refused.map((b) => `${b.where}: ${b.message}`).join('\n')}`);
  const apiVersion = JSON.parse(readFileSync(SNAPSHOT, 'utf8')).info.version;
  const date = new Date().toISOString().slice(0, 10);
  const entry = changelogEntry({ title: `${apiVersion} (packages ${contracts}), ${date}`, changelog, allowed });
  const text = readFileSync(API_CHANGELOG, 'utf8');
  if (!text.includes(ENTRIES_MARK)) throw new Error(`${API_CHANGELOG} has lost its line ${ENTRIES_MARK}`);
  writeFileSync(API_CHANGELOG, text.replace(ENTRIES_MARK, `${ENTRIES_MARK}\n\n${entry.trimEnd()}`));

  copyFileSync(SNAPSHOT, RELEASED_DOCUMENT);
  writeFileSync(ALLOW_LIST, '[]\n');
  console.log(`release: ${contracts} (document ${apiVersion}). Review the diff (git diff) and commit it; nothing was published.`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
