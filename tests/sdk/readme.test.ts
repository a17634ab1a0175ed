import { readFileSync } from 'node:fs';
import { contract, contractEndpoints, WEBHOOK_EVENT_TYPES } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { generateReadme, README_FILE } from '../../packages/client/scripts/readme.js';

describe('the SDK README', () => {
  const readme = readFileSync(README_FILE, 'utf8');

  it('has the method and event tables as the contract is now (`pnpm --filter @switchboard/client readme`)', () => {
    expect(readme).toBe(generateReadme(readme));
  });

  it('lists every method and every webhook event', () => {
    for (const { at } of contractEndpoints(contract)) expect(readme).toContain(`| \`sb.${at.join('.')}\` `);
    for (const type of WEBHOOK_EVENT_TYPES) expect(readme).toContain(`| \`${type}\` `);
  });
});
