#!/usr/bin/env node
// Validates Kubernetes objects (a YAML stream on stdin, e.g. `kubectl kustomize …`) offline against the
// API's schemas, as kubernetes-models (pinned in package.json) ships them. Prints one line per object
// and every problem; exits 1 when any object is invalid or of a kind it has no schema for.
import { parseAllDocuments } from 'yaml';

const input = await new Promise((resolve) => {
  let text = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => (text += chunk));
  process.stdin.on('end', () => resolve(text));
});
let failed = 0;
for (const document of parseAllDocuments(input)) {
  const object = document.toJSON();
  if (!object) continue;
  const { apiVersion, kind } = object;
  const where = `${kind} ${object.metadata?.name ?? '?'} (${apiVersion})`;
  try {
    const group = apiVersion.includes('/') ? apiVersion : `v1`;
    const module = await import(`kubernetes-models/${group}/${kind}`);
    new module[kind](object).validate();
    console.log(`valid: ${where}`);
  } catch (error) {
    failed += 1;
    console.log(`INVALID: ${where}: ${error.message}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
