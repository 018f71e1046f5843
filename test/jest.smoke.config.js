const base = require('./jest.config.js');

/**
 * `pnpm test:smoke`: what CI runs on each other supported Node.js line (.ci/run): the built service
 * started as a process, the three operations and the key tool, and the check that every process runs on
 * the node under test.
 */
module.exports = {
  ...base,
  roots: ['<rootDir>/test'],
  testMatch: ['<rootDir>/test/e2e/smoke.e2e-spec.ts', '<rootDir>/test/e2e/runtime.e2e-spec.ts'],
};
