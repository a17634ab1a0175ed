import { defineConfig } from 'tsup';

export default defineConfig({
  // The library (the server's /mcp builds on it) and the `switchboard-mcp` bin; the tool catalogue is bundled in.
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  // No source maps in the tarball: they point at sources it does not ship.
  sourcemap: false,
  clean: true,
  target: 'node20',
});
