// `pnpm lint`: ESLint with typescript-eslint's type-checked recommended rules over every TypeScript
// file (one program: tsconfig.lint.json). Formatting is Prettier's job (`pnpm format`), so the rules that
// would fight it are off (eslint-config-prettier). Layer rules are dependency-cruiser's (.dependency-cruiser.cjs).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

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
