import { describe, expect, it } from 'vitest';
import { startFlags, startScript } from '../bench/servers.js';

// `pnpm bench` is not part of the suite, so a change to the start script could break it unnoticed: it starts the
// product exactly as `pnpm start` does, reading the Node flags off that script (it throws when it cannot).
describe('the benchmark harness', () => {
  it('starts the server with the Node flags of `pnpm start`, all of them', () => {
    const flags = startFlags();
    expect(startScript()).toContain(`exec node ${[...flags, 'apps/server/dist/main.js'].join(' ')}`);
  });

  it('reads every flag, none, or refuses a start script it cannot read', () => {
    const main = 'apps/server/dist/main.js';
    expect(startFlags(`build && exec node --max-semi-space-size=16 --no-warnings ${main}`)).toEqual([
      '--max-semi-space-size=16',
      '--no-warnings',
    ]);
    expect(startFlags(`build && exec node ${main}`)).toEqual([]);
    expect(() => startFlags(`build && exec tsx apps/server/src/main.ts`)).toThrow(/cannot find the node command/);
  });
});
