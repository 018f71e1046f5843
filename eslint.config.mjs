// `pnpm lint`: ESLint with typescript-eslint's type-checked recommended rules over every TypeScript
// file (one program: tsconfig.lint.json). Formatting is Prettier's job (`pnpm format`), so the rules that
// would fight it are off (eslint-config-prettier). Layer rules are dependency-cruiser's (.dependency-cruiser.cjs).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** Internal files of the libraries: what their documented API does not promise. */
const INTERNAL_MODULES = [
  '@nestjs/*/constants',
  '@nestjs/*/constants.js',
  ...['fastify', 'pg', 'pg-pool', 'prom-client', 'typeorm'].flatMap((name) => [`${name}/lib/*`, `${name}/dist/*`]),
];
const INTERNAL_PATH = String.raw`/^(@nestjs\/[^/]+\/constants|(fastify|pg|pg-pool|prom-client|typeorm)\/(lib|dist)\/)/`;
const INTERNALS = "A library's internal files are not its API: use what its documentation names.";

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'libs/client/src/schema.ts', 'bench/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: ['./tsconfig.lint.json'], tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    rules: {
      // A variable declared first, so that a closure created before its one assignment can see it.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // The tree's convention for what is unused on purpose: a leading underscore, or a property left out
      // of a rest object. (tsc's noUnusedLocals checks the rest too.)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Issue 32 item 4: the service uses its libraries' documented API only. No framework internals
    // (constants, lib/ and dist/ files), no private fields, no replacing another library's methods or
    // listeners (wrap the behaviour in a hook, interceptor or option the library documents instead).
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: INTERNAL_MODULES, message: INTERNALS }] }],
      'no-restricted-syntax': [
        'error',
        { selector: `CallExpression[callee.name='require'] > Literal[value=${INTERNAL_PATH}]`, message: INTERNALS },
        { selector: `CallExpression[callee.name='require'] > TemplateLiteral > TemplateElement[value.raw=${INTERNAL_PATH}]`, message: INTERNALS },
        { selector: `ImportExpression > Literal[value=${INTERNAL_PATH}]`, message: INTERNALS },
        {
          selector: 'AssignmentExpression > MemberExpression.left[property.name=/^(onIncoming|writeHead|destroySoon|emit|write|end|destroy)$/]',
          message: "Do not replace another object's methods: use the hook, option or event its library documents.",
        },
        {
          selector: "CallExpression[callee.property.name='removeAllListeners']",
          message: "Do not remove another library's listeners: use the hook or option its library documents.",
        },
        {
          selector: "MemberExpression[property.name=/^_/]:not([object.type='ThisExpression'])",
          message: 'Do not reach private (_-prefixed) fields of another object.',
        },
        {
          selector:
            "MemberExpression[property.name='parser'][object.name=/socket$/i], MemberExpression[property.name='parser'][object.property.name='socket']",
          message: "Node's socket.parser is private to its HTTP server.",
        },
      ],
    },
  },
  {
    // Small files: none over 200 lines, blank lines and comments counted (as `wc -l` counts them), in the
    // sources, their unit specs and every suite and helper under test/. The generated client schema is
    // ignored above; the migrations are exempt (one per schema change, never edited once released).
    files: ['apps/**/src/**/*.ts', 'libs/**/src/**/*.ts', 'test/**/*.ts'],
    ignores: ['apps/*/src/database/migrations/**'],
    rules: { 'max-lines': ['error', { max: 200, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Tests read JSON answers and fixtures as `any` on purpose and pin their shape with expect();
    // typing every body first would add nothing those assertions do not already check.
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // jest callbacks and fakes are async to match the signature they stand in for.
      '@typescript-eslint/require-await': 'off',
      // A failure message prints whatever value it got, typed or not.
      '@typescript-eslint/restrict-template-expressions': 'off',
      // expect(object.method) passes a method to jest, which never calls it unbound.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  prettier,
);
