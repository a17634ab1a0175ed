import { defineConfig, type Options } from 'tsup';

// The contract is not published on its own: it is bundled into the SDK, code and declarations alike, so an
// installed tarball needs only its real dependencies (axios, @ts-rest/core, zod, standardwebhooks).
const bundled = ['@switchboard/contract'];
/**
 * The main entry, and its parts as entries of their own so that the ESM build splits into modules: with
 * `sideEffects: false`, a bundler then drops the client (and the contract and zod it carries) from an app that
 * imports only `isSwitchboardError` or `verifyWebhook`.
 */
const main = {
  index: 'src/index.ts',
  client: 'src/create-client.ts',
  errors: 'src/errors.ts',
  webhooks: 'src/webhooks.ts',
};
/** `@switchboard/client/webhooks`: built on its own, so its declarations hold only its types. */
const webhooks = { 'webhooks-entry': 'src/webhooks-entry.ts' };

const common: Options = {
  noExternal: bundled,
  // No source maps in the tarball: they doubled its size and pointed at sources it does not ship.
  sourcemap: false,
  target: 'node20',
};
/**
 * The `worker` condition (Cloudflare Workers, Vercel Edge, Deno): no Node built-ins. axios is bundled in its browser
 * form (fetch adapter), since its package resolves a worker bundler to its Node build.
 */
const worker: Options = {
  ...common,
  outDir: 'dist/worker',
  format: ['esm'],
  platform: 'browser',
  noExternal: [...bundled, 'axios'],
  target: 'es2022',
};

const declarations = { entry: { index: main.index }, resolve: bundled };

export default defineConfig([
  { ...common, entry: main, format: ['esm'], dts: declarations, clean: true },
  // CommonJS has no tree shaking to split for: one file.
  { ...common, entry: { index: main.index }, format: ['cjs'], dts: declarations },
  { ...common, entry: webhooks, format: ['esm', 'cjs'], dts: { resolve: bundled } },
  { ...worker, entry: main },
  { ...worker, entry: webhooks },
]);
