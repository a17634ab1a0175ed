import { describe, expect, it } from 'vitest';
import { startFlags } from '../bench/servers.js';

// `pnpm bench` is not part of the suite, so a change to the start script could break it unnoticed: it starts the
// product exactly as `pnpm start` does, reading the Node flags off that script (it throws when it cannot).
describe('the benchmark harness', () => {
  it('finds the node command of `pnpm start` and its Node flags', () => {
    for (const flag of startFlags()) expect(flag).toMatch(/^--[\w-]+(=\S+)?$/);
  });
});
