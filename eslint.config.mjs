// Lint rules are errors or off, never warnings (CONVENTIONS.md rule 10).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';
import webBoundaries from './web/eslint-rules/web-boundaries.mjs';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      '.data/**',
      '.nx/**',
      'e2e/artifacts/**',
      'bench/reports/**',
      'web/public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { '@nx': nx },
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          // Dependencies point one way; no wildcard rules, so a new project must be given a place here.
          depConstraints: [
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform'] },
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform'] },
            { sourceTag: 'type:edge', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform'] },
            {
              sourceTag: 'type:launcher',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', 'type:service', 'type:edge'],
            },
            { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:test', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform'] },
          ],
        },
      ],
    },
  },
  {
    // Jest configs load the workspace preset by relative path; that is configuration, not a project import.
    files: ['**/jest.config.js'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        exports: 'writable',
        __dirname: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // web/ only: React hook rules, and one-way imports (shared -> features -> app; no feature -> feature).
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, web: webBoundaries },
    rules: {
      ...reactHooks.configs.flat['recommended-latest'].rules,
      'web/boundaries': 'error',
    },
  },
);
