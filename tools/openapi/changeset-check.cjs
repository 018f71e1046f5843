#!/usr/bin/env node
// `pnpm openapi:changeset` (run by .ci/run): when the document the code generates differs from the
// released one, a pending changeset must bump @petstore/contracts at least as far as the change needs:
// major when a break went through the allow-list (minor when its entry says `"level": "minor"`: the
// document now says what the service already did), minor for any other change. info.version is left out
// of the comparison: it follows the release.
const { isDeepStrictEqual, parseArgs } = require('node:util');
const { readFileSync, readdirSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { RELEASED_DOCUMENT, ROOT, applyAllowList, compare, readAllowList, toolMain } = require('./breaking.cjs');
const { generateDocument, withoutVersion } = require('./generated-document.cjs');

const LEVELS = ['patch', 'minor', 'major'];
const PACKAGE = '@petstore/contracts';

/** The highest bump of `name` among the pending changesets in `dir` (undefined when none bumps it). */
function pendingBump(dir, name = PACKAGE) {
  let highest;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md')) {
    const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(dir, file), 'utf8'))?.[1] ?? '';
    for (const [, pkg, level] of front.matchAll(/^\s*["']?([^"':]+)["']?\s*:\s*(patch|minor|major)\s*$/gm)) {
      if (pkg === name && (highest === undefined || LEVELS.indexOf(level) > LEVELS.indexOf(highest))) highest = level;
    }
  }
  return highest;
}

/**
 * The bump a change from `released` to `generated` needs: major for a break, unless every break is
 * allowed with `"level": "minor"` (the document now says what the service already did); else minor.
 */
async function requiredBump(released, generated, allowList = readAllowList()) {
  if (isDeepStrictEqual(withoutVersion(released), withoutVersion(generated))) return undefined;
  const { breaks } = await compare(released, generated);
  const { allowed, refused } = applyAllowList(breaks, allowList);
  const documentOnly = allowed.every((found) => found.level === 'minor');
  return refused.length > 0 || !documentOnly ? 'major' : 'minor';
}

const USAGE = `Usage: pnpm openapi:changeset [-- --head <file>] [--changesets <dir>] [--allow <file>]
  Exits 1 when --head (default: the document the code generates) differs from docs/openapi.released.json
  and no changeset in --changesets (default: .changeset) bumps @petstore/contracts far enough.`;

/** The check on `args` (the command line after the script), printing through `out`; resolves to the exit code. */
async function check(args, out) {
  const { values } = parseArgs({
    args: args.filter((arg) => arg !== '--'),
    options: { head: { type: 'string' }, changesets: { type: 'string' }, allow: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    out.log(USAGE);
    return 0;
  }
  const generated = values.head ? resolve(values.head) : generateDocument();
  const needed = await requiredBump(RELEASED_DOCUMENT, generated, readAllowList(values.allow && resolve(values.allow)));
  if (needed === undefined) {
    out.log('openapi:changeset: the generated document is the released one; no changeset needed');
    return 0;
  }
  const pending = pendingBump(values.changesets ? resolve(values.changesets) : join(ROOT, '.changeset'));
  if (pending !== undefined && LEVELS.indexOf(pending) >= LEVELS.indexOf(needed)) {
    out.log(`openapi:changeset: the document changed (${needed}); a pending changeset bumps ${PACKAGE} ${pending}`);
    return 0;
  }
  out.log(
    `openapi:changeset: the generated document differs from docs/openapi.released.json, which needs a ${needed} bump of ${PACKAGE}, ` +
      `but ${pending ? `the pending changesets bump it ${pending} only` : 'no pending changeset bumps it'}. Run \`pnpm changeset\` (${needed}, ` +
      `both @petstore/contracts and @petstore/client) and describe the change for clients.`,
  );
  return 1;
}

const main = toolMain(module, check);

module.exports = { main, pendingBump, requiredBump };
