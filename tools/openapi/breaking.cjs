// Breaking changes between two OpenAPI documents, found by Optic (@useoptic/optic, run as a library so
// that its findings come back as data) with the standard in optic.yml, and the allow-list that lets an
// intentional break through.
const { readFileSync } = require('node:fs');
const { join, relative } = require('node:path');

process.env.OPTIC_TELEMETRY_LEVEL = 'off'; // Optic reports usage to Segment and Sentry unless told not to.
/** Optic, loaded by the first comparison: its load costs over a second of CPU, which a refused allow-list or an unchanged document never needs. */
function optic() {
  const { loadSpec } = require('@useoptic/optic/build/utils/spec-loaders');
  const { compute } = require('@useoptic/optic/build/commands/diff/compute');
  const { jsonChangelog } = require('@useoptic/optic/build/commands/diff/changelog-renderers/json-changelog');
  return { loadSpec, compute, jsonChangelog };
}

const ROOT = join(__dirname, '..', '..');
/** The last released document: what clients were promised. `pnpm release` replaces it. */
const RELEASED_DOCUMENT = join(ROOT, 'docs', 'openapi.released.json');
/** Breaks let through on purpose, each with its reason; `pnpm release` empties it. */
const ALLOW_LIST = join(ROOT, 'docs', 'openapi.allowed-breaks.json');
const STANDARD = join(__dirname, 'optic.yml');

/**
 * Optic's findings from `base` to `head`: `breaks` (each `{ rule, where, message }`) and `changelog`
 * (Optic's JSON changelog: `{ operations: [...] }`, one entry per changed operation). Throws when a ruleset could not be loaded, as
 * Optic itself would then pass every change.
 */
async function compare(basePath, headPath) {
  const { loadSpec, compute, jsonChangelog } = optic();
  const config = { client: undefined, ruleset: undefined };
  const options = { strict: true, denormalize: true };
  const [base, head] = await Promise.all([loadSpec(basePath, config, options), loadSpec(headPath, config, options)]);
  // Optic resolves the local ruleset named in optic.yml against the working directory.
  const cwd = process.cwd();
  process.chdir(ROOT);
  let result;
  try {
    result = await compute([base, head], config, { standard: relative(ROOT, STANDARD), check: true, path: headPath });
  } finally {
    process.chdir(cwd);
  }
  if (result.warnings.length > 0) throw new Error(`Optic could not run its checks: ${result.warnings.join('; ')}`);
  const breaks = result.specResults.results
    .filter((check) => !check.passed && !check.exempted)
    .map((check) => ({ rule: check.name, where: check.where, message: check.error }));
  return { breaks, changelog: jsonChangelog({ from: base.jsonLike, to: head.jsonLike }, result.changelogData) };
}

function readAllowList(path = ALLOW_LIST) {
  const entries = JSON.parse(readFileSync(path, 'utf8'));
  for (const entry of entries) {
    if (!entry.rule || !entry.where || !entry.reason?.trim() || !['major', 'minor', undefined].includes(entry.level)) {
      throw new Error(`${relative(ROOT, path)}: every entry needs "rule", "where" and a "reason": ${JSON.stringify(entry)}`);
    }
  }
  return entries;
}

/**
 * Splits breaks into allowed (with the entry's reason and level: `major` by default, `minor` when the
 * document only catches up with what the service already did) and refused; an allow-list entry that matches no break is reported as unused. */
function applyAllowList(breaks, allowList) {
  const matches = (entry, found) => entry.rule === found.rule && entry.where === found.where;
  return {
    allowed: breaks.flatMap((found) => {
      const entry = allowList.find((e) => matches(e, found));
      return entry ? [{ ...found, reason: entry.reason, level: entry.level ?? 'major' }] : [];
    }),
    refused: breaks.filter((found) => !allowList.some((entry) => matches(entry, found))),
    unused: allowList.filter((entry) => !breaks.some((found) => matches(entry, found))),
  };
}

/**
 * A tool's `main(args, out)`, resolving to `run`'s exit code, or to 2 with the error's message on `out.error`;
 * run from the command line when `script` is the module node started. The tests call it in their own process.
 */
function toolMain(script, run) {
  const main = async (args, out = console) => {
    try {
      return await run(args, out);
    } catch (error) {
      out.error(error instanceof Error ? error.message : error);
      return 2;
    }
  };
  if (require.main === script) main(process.argv.slice(2)).then((code) => (process.exitCode = code));
  return main;
}

module.exports = { ALLOW_LIST, RELEASED_DOCUMENT, ROOT, applyAllowList, compare, readAllowList, toolMain };
