import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONSTANTS_FILE,
  EVENTS_FILE,
  GENERATED_FILE,
  generateApiTypes,
  generateConstants,
  generateEventExports,
} from '../../packages/client/scripts/generate-types.js';
import { buildPackage, SLOW_TIMEOUT_MS } from './commands.js';

describe('the SDK types generated from the contract', () => {
  it(
    'are written by the client’s build from the contract as it is now (no manual step after a contract change)',
    async () => {
      await buildPackage('@switchboard/client');
      expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(generateApiTypes());
      expect(readFileSync(CONSTANTS_FILE, 'utf8')).toBe(generateConstants());
      expect(readFileSync(EVENTS_FILE, 'utf8')).toBe(generateEventExports());
    },
    SLOW_TIMEOUT_MS,
  );
});
