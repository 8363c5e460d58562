// ESLint for the Node workspace (every package under apps/), as go vet is
// for the Go code: the recommended rules, on ES modules that run on
// Node.js 20 or newer. Formatting is Prettier's (.prettierrc).
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    // Not the workspace's code: the Go apps' browser assets, what the
    // runner writes, and what a TypeScript app's build compiles (dist/,
    // and Next.js's .next/ with its next-env.d.ts).
    ignores: ['apps/graphql/graphiql/', 'resources/', 'results/', 'bin/', 'apps/*/dist/', 'apps/*/.next/', 'apps/*/next-env.d.ts'],
  },
  js.configs.recommended,
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: globals.node,
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // An argument that is not used is named `_…`; `const { a, ...rest } = o`
      // names a to leave it out of rest.
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // The SPA's sources (apps/web/src) run in the browser, in JSX.
    files: ['apps/web/src/**/*.js', 'apps/web/src/**/*.jsx'],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: globals.browser,
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
    rules: {
      // ESLint's own scope analysis does not count <Name /> as a use of
      // Name: capitalised names (components) are left to the build.
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true, varsIgnorePattern: '^[A-Z]' }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
  },
];
