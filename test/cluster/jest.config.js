const base = require('../jest.config.js');

/**
 * `pnpm test:cluster` (CI's cluster pass): the scale-out scenarios, each against its own topology (three
 * built instances behind HAProxy, PgBouncer in transaction pooling, Redis; see topology.ts). One suite
 * at a time: each starts a whole topology and puts it under load. The API suites through that topology
 * are `pnpm test:cluster:contract` (jest.contract.config.js): CI runs them once, in `pnpm test`.
 */
module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test/cluster'],
  testMatch: ['<rootDir>/test/cluster/**/*.cluster-spec.ts'],
  maxWorkers: 1,
  testTimeout: 120000,
};
