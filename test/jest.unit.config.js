const base = require('./jest.config.js');

/**
 * `pnpm test:unit`: the specs next to the code, in seconds: no database, nothing to build (the
 * workspace libraries are read from their sources).
 */
module.exports = {
  ...base,
  roots: ['<rootDir>/apps', '<rootDir>/libs'],
  testMatch: ['**/*.spec.ts'],
  moduleNameMapper: { '^@petstore/(contracts|http-errors)$': '<rootDir>/libs/$1/src' },
};
