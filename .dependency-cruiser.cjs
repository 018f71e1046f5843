/**
 * Layer rules, checked by `pnpm lint` (dependency-cruiser over apps/ and libs/, tests excluded).
 *
 * What a "feature" is here: a folder of apps/api/src that serves one part of the API or one per-route
 * concern: pets, orders, health, idempotency, rate-limit. The other folders are shared by all of them
 * and may be imported from anywhere: config, logging, database, http, docs (the OpenAPI helpers), and
 * auth (the API keys and their guards: every route is authenticated). A feature may use another only
 * through its public face: its Nest module (`*.module.ts`), its route decorators (`*.decorator.ts`) and
 * its entity (`*.entity.ts`, registered by database/); never its services or helpers.
 */
const FEATURES = 'pets|orders|health|idempotency|rate-limit';
const PUBLIC_FILES = '[.](module|decorator|entity)[.]ts$';

module.exports = {
  forbidden: [
    {
      name: 'libs-never-import-apps',
      comment: 'A library is used by the app (and by clients of the API), never the other way round.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'contracts-import-no-nestjs',
      comment: '@petstore/contracts is published to API clients: plain classes and data, no framework.',
      severity: 'error',
      from: { path: '^libs/contracts/' },
      to: { path: '@nestjs' },
    },
    {
      name: 'feature-stays-out-of-other-features',
      comment: 'A feature uses another only through its module, its decorators or its entity.',
      severity: 'error',
      from: { path: `^apps/api/src/(${FEATURES})/` },
      to: { path: `^apps/api/src/(${FEATURES})/`, pathNot: [`^apps/api/src/$1/`, PUBLIC_FILES] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/|[.]spec[.]ts$' },
    tsConfig: { fileName: 'tsconfig.lint.json' },
    tsPreCompilationDeps: true,
  },
};
