import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.data/**',
      'tests/artifacts/**',
      'packages/client/src/generated/**',
      'packages/mcp/src/generated/**',
    ],
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
    // A function longer than a screen does several things: split it into named steps. Blank lines and comments do
    // not count (a comment saying why is never the reason to split).
    files: ['**/*.ts'],
    ignores: ['**/*.test.ts', 'tests/**', 'apps/server/src/db/migrations/**'],
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  {
    // Tools outside the server may read their own environment.
    files: ['tests/**', 'packages/**', 'examples/**', 'apps/server/src/config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  // The server's layering and the ban on cycles between folders are checked on resolved paths by dependency-cruiser
  // (.dependency-cruiser.cjs), which `pnpm lint` runs after ESLint.
);
