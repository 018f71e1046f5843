const base = require('../jest.config.js');

/**
 * `pnpm test:prism`: the built service's answers through Stoplight Prism's validating proxy, an
 * independent check of the document (run once by .ci/run, not in every `pnpm test` pass).
 */
module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test/prism'],
  testMatch: ['<rootDir>/test/prism/**/*.prism-spec.ts'],
  maxWorkers: 1,
  testTimeout: 120000,
};
