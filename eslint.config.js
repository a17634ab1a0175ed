import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '.data/**', 'tests/artifacts/**', 'packages/client/src/generated/**'],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-empty-object-type': 'off',
      // Prettier wraps code at 120 but leaves strings, comments and template literals alone; this catches those.
      'max-len': ['error', { code: 120 }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration in apps/server/src/config.ts only.' },
      ],
    },
  },
  {
    // Tools outside the server may read their own environment.
    files: ['tests/**', 'packages/**', 'apps/server/src/config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  // The server's layering and the ban on cycles between folders are checked on resolved paths by dependency-cruiser
  // (.dependency-cruiser.cjs), which `pnpm lint` runs after ESLint.
);
