// ESLint (flat config) with typescript-eslint's recommended rules plus the type-aware rules
// that catch what hurts a durable agent most: promises nobody awaits (a save or a side effect
// that may not finish), and awaits of things that are not promises. `npm run lint`; `npm test` runs it.
// Plus `layers/imports`: the layer rules of docs/architecture.md (the table in scripts/layers.cjs).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import layers from './scripts/layers.cjs';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.cache/**', 'samples/**', 'test-artifacts/**', 'test/e2e/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite', 'before', 'after'] }] },
      ],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { layers: layers.plugin },
    rules: { 'layers/imports': 'error' },
  },
  {
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', exports: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly', setImmediate: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
