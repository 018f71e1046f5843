const base = require('./jest.config.js');

/** `pnpm test:e2e`: the suites under test/ that drive a real database (and the built service). */
module.exports = { ...base, roots: ['<rootDir>/test'], testMatch: ['**/*.e2e-spec.ts', '**/*.integration-spec.ts'] };
