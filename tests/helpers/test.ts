import { test as base } from 'vitest';
import { createTenant } from './fixtures.js';
import { startTestServer } from './server.js';

/**
 * vitest's `test` with the running service as file-scoped fixtures, for suites that talk to one server:
 *
 *   test('lists labels', async ({ server, acme }) => { ... });
 *   test.for(ENDPOINTS)('$name', async (endpoint, { server, acme }) => { ... });
 *
 * - `server`: startTestServer(serverEnv), once per test file: started when a test or a `test.beforeAll` first asks
 *   for it, closed after the file's last test and its afterAll hooks.
 * - `acme`, `globex`: createTenant(server, 'Acme' / 'Globex'), each seeded once per file when first asked for;
 *   asked for together, Acme is seeded first. A file that needs one to exist before its first test asks for it in
 *   a `test.beforeAll`.
 * - `serverEnv`: configuration for the file's server (e.g. { REDIS_URL }), `{}` unless the file sets it at its top
 *   level with `test.override('serverEnv', { ... })`.
 *
 * Setup beyond the tenants goes in `test.beforeAll(async ({ server, acme }) => ...)`, helpers that need the
 * fixtures in fixtures of the file's own: `const test = base.extend('list', ({ server, acme }) => ...)`.
 * File-scoped values are kept per test API, so a file registers all its tests and hooks on one API: `test` and an
 * extension of it side by side, or an extension made inside a describe, would each start a server of their own.
 */
export const test = base
  .extend('serverEnv', { scope: 'file' }, {} as Record<string, string>)
  .extend('server', { scope: 'file' }, async ({ serverEnv }, { onCleanup }) => {
    const server = await startTestServer(serverEnv);
    onCleanup(() => server.close());
    return server;
  })
  .extend('acme', { scope: 'file' }, ({ server }) => createTenant(server, 'Acme'))
  .extend('globex', { scope: 'file' }, ({ server }) => createTenant(server, 'Globex'));
