/**
 * The server's layering, checked by `pnpm lint` (see README "Repository layout").
 *
 * dependency-cruiser rather than eslint-plugin-import-x's `no-cycle` or ESLint's `no-restricted-imports`: it
 * judges resolved file paths (not import strings, which `../index.js` or a type-only import slip past) and, with
 * `scope: 'folder'`, finds cycles between folders. A module cycle is rarely a cycle of files: `channels/a.ts` →
 * `whatsapp/b.ts` while `whatsapp/c.ts` → `channels/d.ts` is invisible to a file-level cycle check.
 *
 * Each folder lists what it MAY import (anything else under apps/server/src is an error), so a new folder or file
 * is covered without editing this file:
 * - modules/<resource>/  kit/, other modules (no cycles), config.ts, logger.ts — never the module list itself;
 * - kit/                 config.ts, logger.ts: what modules build on imports no other server folder;
 * - http/ jobs/ db/    the core: kit/ and each other as below, never a module (they are handed the module list);
 *                        but db/migrations/ applies the modules' `*.sql.ts` (their functions and triggers);
 * - lifecycle/           process start and readiness: db/;  observability/: reads http/ and jobs/;
 * - the composition (app.ts, server.ts, main.ts, wiring.ts, demo.ts, index.ts, cli/, portal/) may import anything
 *   and nothing above imports it.
 * Across all of them, `modules/<name>/index.ts` is a module's public face: a file outside the module (another module,
 * the portal, the CLI, the composition) imports the module through its index.ts only, never an inner file.
 */
const SERVER = '^apps/server/src/';
const SHARED = 'config\\.ts$|logger\\.ts$';
/** A module's functions and triggers (kit/sql-definitions.ts), which the migrations apply. */
const MODULE_SQL = 'modules/[^/]+/[^/]+\\.sql\\.ts$';
const MIGRATIONS = `${SERVER}db/migrations/`;

/** Files in `folder` may import, under apps/server/src, only what `allowed` matches (and their own folder). */
const mayImport = (folder, allowed, comment) => ({
  name: `${folder.replaceAll('/', '-')}-layer`,
  comment,
  severity: 'error',
  from: { path: `${SERVER}${folder}/` },
  to: { path: SERVER, pathNot: `${SERVER}(${folder}/|${[...allowed, SHARED].join('|')})` },
});

module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      comment: 'Folders (modules included) depend on each other one way only: their dependencies form a DAG.',
      severity: 'error',
      scope: 'folder',
      from: { path: SERVER },
      to: { circular: true },
    },
    {
      name: 'modules-layer',
      comment:
        'A module depends on kit/ and lower modules only; the core is handed the module list, and no module reads ' +
        'that list.',
      severity: 'error',
      from: { path: `${SERVER}modules/([^/]+)/` },
      to: { path: SERVER, pathNot: `${SERVER}(kit/|modules/[^/]+/|${SHARED})` },
    },
    {
      name: 'module-through-index',
      comment:
        "Another module's files are reached through its index.ts, the module's public face: export from there what " +
        'others may use.',
      severity: 'error',
      from: { path: `${SERVER}modules/([^/]+)/` },
      to: { path: `${SERVER}modules/[^/]+/.`, pathNot: [`${SERVER}modules/$1/`, `${SERVER}modules/[^/]+/index\\.ts$`] },
    },
    {
      name: 'composition-through-index',
      comment: 'The portal, the CLI and the composition reach a module through its index.ts only, as other modules do.',
      severity: 'error',
      from: { path: SERVER, pathNot: [`${SERVER}modules/`, MIGRATIONS] },
      to: { path: `${SERVER}modules/[^/]+/.`, pathNot: `${SERVER}modules/[^/]+/index\\.ts$` },
    },
    {
      name: 'wiring-below-portal',
      comment:
        'wiring.ts binds the module list to the core; the portal sits above it (it is handed what wiring derives), ' +
        'so wiring imports nothing of the portal: the portal session table is a module entity like any other.',
      severity: 'error',
      from: { path: `${SERVER}wiring\\.ts$` },
      to: { path: `${SERVER}portal/` },
    },
    mayImport('kit', [], 'kit/ is what modules build on; it imports no other server folder.'),
    mayImport(
      'http',
      ['kit/', 'lifecycle/readiness\\.ts$', 'outages\\.ts$'],
      'http/ imports no module (it is handed the module list) and reaches them through kit ports.',
    ),
    mayImport(
      'jobs',
      ['kit/', 'db/', 'outages\\.ts$'],
      'jobs/ knows job names, not modules: it is handed their row targets, tasks and workers.',
    ),
    mayImport('db', ['kit/', MODULE_SQL], 'db/ imports no module: it is handed the entities and seed sections.'),
    {
      name: 'db-core-without-module-sql',
      comment:
        "Only the migrations read the modules' SQL files: they are the history of the whole schema, and Node loads " +
        'them (and what they import) without the index.ts of a module; the rest of db/ knows no module.',
      severity: 'error',
      from: { path: `${SERVER}db/`, pathNot: MIGRATIONS },
      to: { path: `${SERVER}${MODULE_SQL}` },
    },
    mayImport(
      'lifecycle',
      ['db/'],
      'lifecycle/ starts and watches the process; it knows the database, nothing above it.',
    ),
    mayImport(
      'observability',
      ['http/', 'jobs/', 'kit/'],
      'observability/ reads what http/ and jobs/ report; the core never imports it.',
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    // Type-only imports count: a type import is a dependency of the design even when it erases at run time.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'apps/server/tsconfig.json' },
  },
};
