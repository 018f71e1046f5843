const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

/**
 * Every test in one jest run (`pnpm test`): unit specs next to the code, and under test/ the suites
 * that need a database (integration, e2e, faults). `pnpm test:unit` and `pnpm test:e2e` run either half;
 * jest.embedded.config.js and jest.smoke.config.js are the subsets CI runs again (.ci/run), and
 * jest.packages.config.js the packaging suites left out here.
 */
const swc = {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
  },
  module: { type: 'commonjs' },
};

/**
 * NestJS 12 and some of its dependencies ship ES modules only. Node loads them from CommonJS
 * (require(esm)), but jest's own module system cannot on Node 20, so exactly those packages are
 * compiled to CommonJS for the tests. They are found by reading the installed packages.
 */
function esmOnlyPackages() {
  const store = join(__dirname, '..', 'node_modules', '.pnpm');
  const names = new Set();
  for (const entry of readdirSync(store)) {
    const modules = join(store, entry, 'node_modules');
    let scopes;
    try {
      scopes = readdirSync(modules);
    } catch {
      continue;
    }
    for (const scope of scopes) {
      const dirs = scope.startsWith('@') ? readdirSync(join(modules, scope)).map((d) => `${scope}/${d}`) : [scope];
      for (const name of dirs) {
        try {
          const pkg = JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8'));
          if (pkg.type === 'module' && !JSON.stringify(pkg.exports ?? {}).includes('"require"')) names.add(pkg.name);
        } catch {
          // not a package folder
        }
      }
    }
  }
  // In the pnpm store a scoped name is spelled @scope+name.
  return [...names].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('/', '[/+]'));
}

/**
 * The suites that pack, install and deploy the workspace's packages (minutes of pnpm, npm and tsc, and
 * nothing about the service's answers): `pnpm test:packages`, a pass of their own in CI.
 */
const PACKAGING = ['/test/e2e/packs-from-clean-tree\\.', '/test/e2e/consumer-packages\\.', '/test/e2e/image\\.'];

module.exports = {
  rootDir: '..',
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/*.integration-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', ...PACKAGING],
  transform: {
    '^.+\\.ts$': ['@swc/jest', swc],
    '^.+\\.m?js$': ['@swc/jest', { module: { type: 'commonjs' } }],
  },
  // Every @nestjs package too: some ship ES modules from a nested folder (@nestjs/swagger's dist/).
  transformIgnorePatterns: [`/node_modules/(?!(\\.pnpm/)?(@nestjs[/+]|(${esmOnlyPackages().join('|')})[/@+]))`],
  setupFiles: ['reflect-metadata'],
  // A process a suite leaves running fails the run (jest.global-teardown.js).
  globalSetup: '<rootDir>/test/jest.global-setup.js',
  globalTeardown: '<rootDir>/test/jest.global-teardown.js',
  testTimeout: 30000,
  // Twice the 2 cores: many suites spend seconds waiting (a batch's 5 s, a lock's retries, a drain), and
  // the extra workers fill that time (pnpm test on the server: 206 s with 2 workers, 97 s with 4).
  maxWorkers: 4,
  // How long a worker may take to end once told to (jest's default: 500 ms, then SIGTERM and "A worker process
  // has failed to exit gracefully"). Measured on this 2-core machine with 4 workers: every worker reached its
  // 'exit' event 1-33 ms after jest ended it, holding nothing but its stdout and stderr, yet the process itself
  // took up to 1.3 s more to go, so jest killed it and printed the warning though no suite leaked anything.
  // A handle a suite really leaves open still keeps its worker past these 5 s and still gets the warning.
  workerGracefulExitTimeout: 5000,
};
