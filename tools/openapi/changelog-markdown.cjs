// One entry of docs/api-changelog.md, written from Optic's JSON changelog of two released documents.

/** Keys whose changes are documentation: counted, not listed one by one. */
const DOCUMENTATION = /\/(description|summary|examples?)(\/|$)/;
const CHILDREN = ['parameters', 'request', 'responses', 'contentTypes', 'headers', 'fields'];

const short = (value) => {
  const text = JSON.stringify(value);
  return text !== undefined && text.length <= 80 ? `\`${text}\`` : undefined;
};

/** `[path, attribute]` for every changed attribute under a node of the changelog. */
function leaves(node, path = []) {
  const here = node.name && node.change !== 'changed' ? [[[...path, node.name], { key: '', change: node.change }]] : [];
  const own = (node.attributes ?? []).map((attribute) => [[...path, node.name].filter(Boolean), attribute]);
  const below = CHILDREN.flatMap((key) => [node[key]].flat().filter(Boolean)).flatMap((child) => leaves(child, [...path, node.name].filter(Boolean)));
  return [...here, ...own, ...below];
}

function line([path, { key, change, before, after }]) {
  const where = [...path, key].filter(Boolean).join(' › ');
  const values = [short(before) && `was ${short(before)}`, short(after) && `now ${short(after)}`].filter(Boolean).join(', ');
  return `${where}: ${change}${values ? ` (${values})` : ''}`;
}

/**
 * Markdown for one release: the operations that changed, each attribute on a line (documentation
 * changes counted), then the breaks the allow-list let through with their reasons.
 */
function changelogEntry({ title, changelog, allowed }) {
  const lines = [`## ${title}`, ''];
  for (const operation of changelog.operations) {
    const all = operation.change === 'changed' ? leaves({ ...operation, name: undefined }) : [];
    const docs = all.filter(([, attribute]) => DOCUMENTATION.test(attribute.key));
    const rest = all.filter(([, attribute]) => !DOCUMENTATION.test(attribute.key));
    lines.push(`- \`${operation.name}\` ${operation.change}${docs.length ? ` (${docs.length} description or example change(s))` : ''}`);
    for (const leaf of rest) lines.push(`  - ${line(leaf)}`);
  }
  if (changelog.operations.length === 0) lines.push('- No operation changed.');
  const breaking = allowed.filter((found) => found.level !== 'minor');
  const documentOnly = allowed.filter((found) => found.level === 'minor');
  if (breaking.length > 0) {
    lines.push('', '**Breaking changes** (let through on purpose):');
    for (const { where, message, reason } of breaking) lines.push(`- ${where}: ${message} Why: ${reason}`);
  }
  if (documentOnly.length > 0) {
    lines.push('', '**Flagged by the breaking-change gate, but not a change of behaviour** (the document now says what the service already did):');
    for (const { where, message, reason } of documentOnly) lines.push(`- ${where}: ${message} Why: ${reason}`);
  }
  return `${lines.join('\n')}\n`;
}

module.exports = { changelogEntry };
