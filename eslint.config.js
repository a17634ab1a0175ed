import tseslint from 'typescript-eslint';

/**
 * Server layering (see README "Code layout"): modules depend on kit only; the core (http, events, db) is handed
 * the module list and imports no module; kit imports none of them. Composition (app.ts, server.ts, wiring.ts,
 * cli/, portal/) may import anything. Folders import each other one way only, so there are no cycles between them.
 */
const layer = (folder, forbidden, why) => ({
  files: [`apps/server/src/${folder}/**`],
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((folder) => ({ group: [`**/${folder}/**`, `**/${folder}.js`], message: why })) }],
  },
});
const COMPOSITION = ['app', 'server', 'main', 'wiring', 'cli', 'portal'];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', 'tests/artifacts/**', '**/*.config.ts', '**/*.config.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration in apps/server/src/config.ts only.' }],
    },
  },
  {
    // Tools outside the server may read their own environment.
    files: ['tests/**', 'packages/**', 'apps/server/src/config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  layer('modules', ['http', 'events', 'db', ...COMPOSITION], 'A module depends on kit/ and other modules only; the core is handed the module list.'),
  layer('kit', ['http', 'events', 'db', 'modules', ...COMPOSITION], 'kit/ is what modules build on; it imports no other server folder.'),
  layer('http', ['modules', 'events', 'db', ...COMPOSITION], 'http/ imports no module (it is handed the module list) and reaches the rest through kit ports.'),
  layer('events', ['modules', 'http', ...COMPOSITION], 'events/ knows job names, not modules: it is handed their delivery targets.'),
  layer('db', ['modules', 'events', 'http', ...COMPOSITION], 'db/ imports no module: it is handed the entities and seed sections.'),
);
