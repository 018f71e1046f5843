const base = require('./jest.config.js');

/**
 * `pnpm test:packages`: the packaging suites `pnpm test` leaves out: the libraries packed from a clean
 * tree, consumed as tarballs outside the workspace, and the image's `pnpm deploy` run and started.
 */
module.exports = {
  ...base,
  roots: ['<rootDir>/test'],
  testMatch: ['packs-from-clean-tree', 'consumer-packages', 'image'].map((name) => `<rootDir>/test/e2e/${name}.e2e-spec.ts`),
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};
