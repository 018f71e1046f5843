/**
 * Layer rules, checked by `pnpm lint` (dependency-cruiser over apps/ and libs/, tests excluded).
 *
 * What a "feature" is here: a folder of apps/api/src that serves one part of the API or one per-route
 * concern: pets, orders, health, idempotency, rate-limit. The shared folders serve all of them and may
 * be imported from anywhere, but never import a feature: config, logging, database, http, docs (the
 * OpenAPI helpers), observability. A feature declares what a shared folder needs of it (its entities
 * are listed by the app's entities.ts, its loggable query parameters by `logQueryValues`). auth (the API
 * keys and the guards that check them: every route is authenticated) is shared too. A feature may use
 * another only through its public face: its Nest module (`*.module.ts`), its route decorators
 * (`*.decorator.ts`) and its entity (`*.entity.ts`); never its services or helpers.
 */
const FEATURES = 'pets|orders|health|idempotency|rate-limit';
const SHARED = 'config|logging|database|http|docs|observability|auth';
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
    {
      name: 'shared-never-imports-a-feature',
      comment: 'A shared folder serves every feature: it knows none of them (a feature registers what it needs).',
      severity: 'error',
      from: { path: `^apps/api/src/(${SHARED})/` },
      to: { path: `^apps/api/src/(${FEATURES})/` },
    },
    {
      name: 'no-circular',
      comment: 'No import circle: each file can be read, and tested, knowing only what it imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/|[.]spec[.]ts$' },
    tsConfig: { fileName: 'tsconfig.lint.json' },
    tsPreCompilationDeps: true,
  },
};
