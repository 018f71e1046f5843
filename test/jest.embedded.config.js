const base = require('./jest.config.js');

/**
 * `pnpm test:embedded`, CI's second pass (.ci/run), without DATABASE_URL: the API suites, whose answers
 * depend on the database engine, once more on the embedded PostgreSQL, and the suite that runs only
 * there. Every other suite (the key tool, the start, the guard's parsing) runs once, in `pnpm test` on
 * the PostgreSQL server.
 */
const SUITES = ['pets-*', 'auth', 'api-keys', 'idempotency', 'errors', 'openapi', 'embedded-memory'];

module.exports = { ...base, roots: ['<rootDir>/test'], testMatch: SUITES.map((name) => `<rootDir>/test/e2e/${name}.e2e-spec.ts`) };
