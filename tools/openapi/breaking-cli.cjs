#!/usr/bin/env node
// `pnpm openapi:breaking`: exits 1 listing every breaking change from the released document to the one
// the code generates, unless docs/openapi.allowed-breaks.json lets it through with a reason.
const { relative, resolve } = require('node:path');
const { parseArgs } = require('node:util');
const { ALLOW_LIST, RELEASED_DOCUMENT, ROOT, applyAllowList, compare, readAllowList, toolMain } = require('./breaking.cjs');
const { generateDocument } = require('./generated-document.cjs');

const USAGE = `Usage: pnpm openapi:breaking [-- --base <file>] [--head <file>]
  Lists the breaking changes from --base (default: ${relative(ROOT, RELEASED_DOCUMENT)}, the last released
  document) to --head (default: the document the code generates) and exits 1 when one is not in
  ${relative(ROOT, ALLOW_LIST)} (--allow <file> names another list; every entry needs a reason).`;

/** The gate on `args` (the command line after the script), printing through `out`; resolves to the exit code. */
async function gate(args, out) {
  const { values } = parseArgs({
    args: args.filter((arg) => arg !== '--'),
    options: { base: { type: 'string' }, head: { type: 'string' }, allow: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    out.log(USAGE);
    return 0;
  }
  const base = values.base ? resolve(values.base) : RELEASED_DOCUMENT;
  const head = values.head ? resolve(values.head) : generateDocument();
  // The allow-list first: a malformed one is refused before Optic's seconds of work.
  const allowList = readAllowList(values.allow && resolve(values.allow));
  const { breaks } = await compare(base, head);
  const { allowed, refused, unused } = applyAllowList(breaks, allowList);
  const headName = values.head ?? 'the generated document';
  for (const found of allowed) out.log(`allowed: ${found.where}: ${found.message}`);
  for (const found of refused) out.log(`BREAKING: ${found.where}: ${found.message} [${found.rule}]`);
  for (const entry of unused) out.log(`unused allow-list entry (remove it): ${entry.where} [${entry.rule}]`);
  if (refused.length > 0 || unused.length > 0) {
    out.log(
      `openapi:breaking: ${refused.length} breaking change(s) from ${relative(ROOT, base)} to ${headName}. ` +
        `Keep the API compatible, or let an intentional break through in ${relative(ROOT, ALLOW_LIST)} with its reason (see docs/contract.md).`,
    );
    return 1;
  }
  out.log(
    `openapi:breaking: no breaking change from ${relative(ROOT, base)} to ${headName}${allowed.length ? ` but the ${allowed.length} allowed` : ''}`,
  );
  return 0;
}

const main = toolMain(module, gate);

module.exports = { main };
