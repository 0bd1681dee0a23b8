import js from '@eslint/js';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// The layers, from the bottom: db (schema, client) and shared/ (zod schemas, the route manifest
// and the message catalogs: code both sides run) → server/lib (helpers without rules) →
// server/services (every rule, grouped by domain) → the doors (server/rest, server/trpc) and
// server/plugins → server/app.ts. The client talks to the server over HTTP only; it imports
// shared/ and the AppRouter type. Tests may cross layers (they
// drive both doors), so the layer rules below skip *.test.ts and server/test/.
const tests = ['**/*.test.ts', 'server/test/**'];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'db/migrations/', 'test-results/', 'playwright-report/', 'bench-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      // Each file is checked with the tsconfig.json nearest to it: the root one (server, db,
      // scripts; no DOM), client/tsconfig.json or e2e/tsconfig.json.
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
      // no-cycle reads the imported files itself: without these it cannot parse TypeScript and
      // silently sees no imports at all.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'no-console': ['error', { allow: ['warn', 'error', 'log'] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Fastify's contract: a plugin or handler is `async` so that its return value (or its
      // settling) is the reply or the "done"; many have nothing to await, and that is correct.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.test.ts', 'e2e/**/*.ts', 'server/test/**'],
    rules: {
      // Tests read HTTP replies as JSON (`any`) and assert on them field by field; the assertion
      // is the type check there. The unsafe-any rules stay on everywhere else.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JavaScript (this file, scripts/*.mjs) has no types to check against.
    files: ['**/*.{js,mjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.{ts,tsx}'],
    ignores: tests,
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './db',
              from: ['./server', './shared', './client'],
              message: 'db is the bottom layer: it imports nothing from server/, shared/ or client/',
            },
            {
              target: './shared',
              from: ['./server', './client', './db'],
              message: 'shared/ (schemas, route manifest, catalogs) is code both sides run: it imports only packages and itself',
            },
            { target: './server', from: './client', message: 'the server imports nothing from client/: code both need lives in shared/' },
            {
              target: './server/lib',
              from: ['./server/services', './server/rest', './server/trpc', './server/plugins', './server/cli', './server/seed'],
              message: 'server/lib holds helpers without rules: services, doors and plugins build on it, never the other way',
            },
            {
              target: './server/services',
              from: ['./server/plugins', './server/rest', './server/trpc'],
              message: 'services hold the rules; the doors (rest, trpc) and plugins call them, never the other way',
            },
            {
              target: './client',
              from: ['./server', './db'],
              except: ['./trpc'],
              message: 'the client imports shared/ and only the AppRouter type from server/trpc',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // Props and context values (useI18n, callbacks) are plain objects of functions declared in
      // method shorthand; nothing in the client uses `this`, so destructuring them is safe.
      '@typescript-eslint/unbound-method': 'off',
      // React ignores what an event handler returns; async form handlers catch their own errors.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // server/trpc is for its types only: a value import would bundle server code.
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/server/trpc/*'], allowTypeImports: true, message: 'the client imports only the AppRouter type from server/trpc' }],
        },
      ],
    },
  },
);
