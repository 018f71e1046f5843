const base = require('./jest.config.js');

/**
 * `pnpm test:cluster:contract`: the API suites again, each against its own topology (test-app.ts starts
 * one under PETSTORE_TOPOLOGY=cluster). Not in CI, where they run once, in `pnpm test`.
 */
process.env.PETSTORE_TOPOLOGY = 'cluster';

const CONTRACT_SUITES = [
  'auth',
  'concurrency',
  'errors',
  'health',
  'idempotency',
  'openapi',
  'pets-create',
  'pets-create-body',
  'pets-get',
  'pets-list',
  'pets-pagination',
];

module.exports = {
  ...base,
  roots: ['<rootDir>/test/e2e'],
  testMatch: CONTRACT_SUITES.map((name) => `<rootDir>/test/e2e/${name}.e2e-spec.ts`),
};
