import { defineConfig } from 'tsup';

// The contract is not published on its own: it is bundled into the SDK, code and declarations alike, so an
// installed tarball needs only its real dependencies (axios, @ts-rest/core, zod).
const bundled = ['@switchboard/contract'];

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: { resolve: bundled },
  noExternal: bundled,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
