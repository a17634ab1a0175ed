import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, generateApiTypes } from '../../packages/client/scripts/generate-types.js';
import { SLOW_TIMEOUT_MS } from './commands.js';

describe('the SDK types generated from the contract', () => {
  it('are committed as the contract gives them today (run `pnpm --filter @switchboard/client generate` after a contract change)', () => {
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(generateApiTypes());
  }, SLOW_TIMEOUT_MS);
});
