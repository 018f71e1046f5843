const base = require('../jest.config.js');

/**
 * `pnpm test:cluster`: the contract suites, each against its own topology (three built instances
 * behind HAProxy, PgBouncer in transaction pooling, Redis; see topology.ts), then the scale-out
 * scenarios. One suite at a time: each starts a whole topology and some put it under load.
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
  'pets-get',
  'pets-list',
  'pets-pagination',
];

module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test'],
  testMatch: [...CONTRACT_SUITES.map((name) => `<rootDir>/test/e2e/${name}.e2e-spec.ts`), '<rootDir>/test/cluster/**/*.cluster-spec.ts'],
  maxWorkers: 1,
  testTimeout: 120000,
};
