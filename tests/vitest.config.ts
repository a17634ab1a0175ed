import path from 'node:path';
import { defineConfig } from 'vitest/config';

const repo = path.resolve(import.meta.dirname, '..');

export default defineConfig({
  resolve: {
    // In-process suites run the workspace packages from source, so a test run always sees the current code.
    // Suites that spawn the built server or CLI use dist/ (built by `pnpm test` first).
    alias: {
      '@switchboard/server': path.join(repo, 'apps/server/src/index.ts'),
      '@switchboard/contract': path.join(repo, 'packages/contract/src/index.ts'),
      '@switchboard/client': path.join(repo, 'packages/client/src/index.ts'),
      '@switchboard/openapi': path.join(repo, 'packages/openapi/src/index.ts'),
      // Its tool catalogue (src/generated/) is written by its build's `generate` step.
      '@switchboard/mcp': path.join(repo, 'packages/mcp/src/index.ts'),
    },
  },
  test: {
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    globalSetup: ['./helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Each file gets its own database; two at a time suits the 2-core machines this runs on.
    maxWorkers: 2,
  },
});
