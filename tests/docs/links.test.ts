import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/processes.js';
import { brokenLinks, parseMarkdown, readMarkdown, relativeLinkCount } from './markdown.js';

const DOCS = [
  'README.md',
  ...readdirSync(path.join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('links in the README and docs/', () => {
  it.each(DOCS)('%s: every relative link and anchor resolves', (name) => {
    const file = path.join(REPO_ROOT, name);
    const tree = readMarkdown(file);
    expect(relativeLinkCount(tree)).toBeGreaterThan(0);
    expect(brokenLinks(file, tree)).toEqual([]);
  });

  it('reports a missing file, a missing anchor and an anchor of another document', () => {
    const file = path.join(REPO_ROOT, 'docs', 'example.md');
    const tree = parseMarkdown(
      '# Title\n\n## `ticket.closed`: email\n\n[a](#ticketclosed-email) [b](#nope) [c](missing.md) ' +
        '[d](api.md#authentication) [e](api.md#nope) [f](https://example.com/#nope)\n',
    );
    expect(brokenLinks(file, tree).map((link) => link.url)).toEqual(['#nope', 'missing.md', 'api.md#nope']);
  });
});
