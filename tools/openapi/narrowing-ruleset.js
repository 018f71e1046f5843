// An Optic ruleset (loaded by optic.yml beside it) for what Optic's own breaking-changes ruleset does not
// see: a request value whose accepted range narrows (a lower maximum, a higher minimum, a shorter
// maxLength, a new or changed pattern or format). A request that was valid would be refused.
const { OperationRule, RequestRule, RuleError, Ruleset } = require('@useoptic/rulesets-base');

/** Bounds where a larger value after the change accepts fewer requests. */
const RAISED = ['minimum', 'minLength', 'minItems', 'minProperties'];
/** Bounds where a smaller value after the change accepts fewer requests. */
const LOWERED = ['maximum', 'maxLength', 'maxItems', 'maxProperties'];
/** Keywords that cannot be compared: any new or changed value may refuse what was accepted. */
const OPAQUE = ['pattern', 'format', 'multipleOf'];

/** How the accepted values of a schema narrow from before to after, one sentence each. */
function narrowings(before = {}, after = {}) {
  const found = [];
  for (const key of RAISED) {
    if (after[key] !== undefined && (before[key] === undefined || after[key] > before[key]))
      found.push(`${key} ${before[key] ?? 'none'} → ${after[key]}`);
  }
  for (const key of LOWERED) {
    if (after[key] !== undefined && (before[key] === undefined || after[key] < before[key]))
      found.push(`${key} ${before[key] ?? 'none'} → ${after[key]}`);
  }
  for (const key of ['exclusiveMinimum', 'exclusiveMaximum']) {
    if (after[key] === true && before[key] !== true) found.push(`${key} added`);
  }
  for (const key of OPAQUE) {
    if (after[key] !== undefined && after[key] !== before[key])
      found.push(`${key} ${JSON.stringify(before[key] ?? null)} → ${JSON.stringify(after[key])}`);
  }
  return found;
}

const parameterRule = (location) =>
  new OperationRule({
    name: `prevent narrowing ${location} parameter ranges`,
    rule: (operation) => {
      operation[`${location}Parameter`].changed((before, after) => {
        const found = narrowings(before.value.schema, after.value.schema);
        if (found.length > 0) {
          throw new RuleError({
            message: `${location} parameter '${after.value.name}' accepts fewer values (${found.join('; ')}). This is a breaking change.`,
          });
        }
      });
    },
  });

const requestPropertyRule = new RequestRule({
  name: 'prevent narrowing request property ranges',
  rule: (request) => {
    request.property.changed((before, after) => {
      const found = narrowings(before.value.flatSchema, after.value.flatSchema);
      if (found.length > 0) {
        throw new RuleError({
          message: `request property '${after.value.key}' accepts fewer values (${found.join('; ')}). This is a breaking change.`,
        });
      }
    });
  },
});

class NarrowingRuleset extends Ruleset {
  constructor() {
    super({
      name: 'request-narrowing',
      rules: [parameterRule('query'), parameterRule('path'), parameterRule('header'), parameterRule('cookie'), requestPropertyRule],
    });
  }
}

module.exports = {
  configSchema: { type: 'object' },
  rulesetConstructor: () => new NarrowingRuleset(),
  narrowings,
};
