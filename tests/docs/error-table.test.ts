import path from 'node:path';
import { ERROR_CODE_STATUS } from '@switchboard/contract';
import type { TableCell } from 'mdast';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/processes.js';
import { codeSpans, readMarkdown, tableUnder, textOf } from './markdown.js';

/** docs/api.md's error table: each code it names, with the status of its row. */
function documentedCodes(): Record<string, number> {
  const table = tableUnder(readMarkdown(path.join(REPO_ROOT, 'docs/api.md')), 'The envelope and errors');
  if (!table) throw new Error('docs/api.md has no table under "The envelope and errors"');
  return Object.fromEntries(
    table.children.slice(1).flatMap((row) => {
      const [status, codes] = row.children as [TableCell, TableCell];
      return codeSpans(codes).map((code) => [code, Number(textOf(status))] as const);
    }),
  );
}

describe('docs/api.md: the error table', () => {
  it('names every error code of the contract, with its status, and no other', () => {
    expect(documentedCodes()).toEqual(ERROR_CODE_STATUS);
  });
});
