import path from 'node:path';
import { WEBHOOK_EVENT_TYPES } from '@switchboard/contract';
import type { TableCell } from 'mdast';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/processes.js';
import { codeSpans, readMarkdown, tableUnder } from './markdown.js';

/** docs/api.md's event table: the event type each row names, in order. */
function documentedEvents(): string[] {
  const table = tableUnder(readMarkdown(path.join(REPO_ROOT, 'docs/api.md')), 'Events and webhooks');
  if (!table) throw new Error('docs/api.md has no table under "Events and webhooks"');
  return table.children.slice(1).flatMap((row) => codeSpans(row.children[0] as TableCell));
}

describe('docs/api.md: the event table', () => {
  it('names every webhook event type of the contract, once each, and no other', () => {
    expect([...documentedEvents()].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
  });
});
