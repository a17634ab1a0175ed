import tseslint from 'typescript-eslint';

const CAST_MESSAGE =
  'Type it instead of casting through never or unknown; a true library seam goes in the list of eslint.config.js ' +
  'and docs/architecture.md ("Casts at library seams").';

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
    // A cast that silences the type checker (`as never`, `as unknown as T`) hides a type that is wrong somewhere; the
    // server types its code instead. The few at library seams are listed below and in docs/architecture.md.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/db/migrations/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TSAsExpression > TSNeverKeyword', message: CAST_MESSAGE },
        { selector: 'TSTypeAssertion > TSNeverKeyword', message: CAST_MESSAGE },
        { selector: 'TSAsExpression > TSAsExpression > TSUnknownKeyword', message: CAST_MESSAGE },
      ],
    },
  },
  {
    // Casts at library seams (docs/architecture.md says why each is there): each carries a "Library seam" comment.
    files: [
      'apps/server/src/db/seed/seed-loader.ts',
      'apps/server/src/http/register.ts',
      'apps/server/src/kit/secret-columns.ts',
      'apps/server/src/modules/labels/label.service.ts',
      'apps/server/src/modules/webhook-transport/destination.test.ts',
      'apps/server/src/portal/sign-in.service.test.ts',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Tools outside the server may read their own environment.
    files: ['tests/**', 'packages/**', 'examples/**', 'apps/server/src/config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  // The server's layering and the ban on cycles between folders are checked on resolved paths by dependency-cruiser
  // (.dependency-cruiser.cjs), which `pnpm lint` runs after ESLint.
);
