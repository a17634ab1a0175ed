import { describe, expect, it } from 'vitest';
import { startFlags } from '../bench/servers.js';

// `pnpm bench` is not part of the suite, so a change to the start script could break it unnoticed: it starts the
// product exactly as `pnpm start` does, reading the Node flags off that script.
describe('the benchmark harness', () => {
  it('reads the Node flags `pnpm start` gives the server', () => {
    expect(startFlags()).toContain('--max-semi-space-size=16');
  });
});
