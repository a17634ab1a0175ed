import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import type { Nodes, Root, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

/** A Markdown file as GitHub reads it (CommonMark + GFM tables). */
export function parseMarkdown(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

export const readMarkdown = (file: string): Root => parseMarkdown(readFileSync(file, 'utf8'));

/** The text a node renders, inline code included (what GitHub derives a heading's anchor from). */
export function textOf(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  return 'children' in node ? node.children.map((child) => textOf(child as Nodes)).join('') : '';
}

/** Every node of the tree, depth first, in document order. */
export function* walk(node: Nodes): Generator<Nodes> {
  yield node;
  if ('children' in node) for (const child of node.children) yield* walk(child as Nodes);
}

/** The anchors GitHub gives the headings of a document (github-slugger: the same algorithm, duplicates numbered). */
function anchorsOf(tree: Root): Set<string> {
  const slugger = new GithubSlugger();
  return new Set([...walk(tree)].filter((node) => node.type === 'heading').map((node) => slugger.slug(textOf(node))));
}

/** The first table after the heading with this text. */
export function tableUnder(tree: Root, heading: string): Table | undefined {
  const start = tree.children.findIndex((node) => node.type === 'heading' && textOf(node) === heading);
  if (start < 0) return undefined;
  return tree.children.slice(start + 1).find((node): node is Table => node.type === 'table');
}

/** The inline code spans of a node, in order. */
export const codeSpans = (node: Nodes): string[] =>
  [...walk(node)].filter((child) => child.type === 'inlineCode').map((child) => (child as { value: string }).value);

export interface BrokenLink {
  file: string;
  url: string;
  problem: string;
}

/**
 * Relative links (and link definitions) of a Markdown document that do not resolve: a file that does not exist, or
 * an anchor that no heading of the target document has. Links with a scheme (https:, mailto:) are not followed.
 */
export function brokenLinks(file: string, tree: Root, read: (file: string) => Root = readMarkdown): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const node of walk(tree)) {
    if (node.type !== 'link' && node.type !== 'definition') continue;
    const { url } = node;
    if (/^[a-z][a-z0-9+.-]*:/i.test(url)) continue;
    const [target = '', anchor] = url.split('#');
    const resolved = target === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(target));
    if (target !== '' && !existsSync(resolved)) {
      broken.push({ file, url, problem: `${path.relative(path.dirname(file), resolved)} does not exist` });
      continue;
    }
    if (anchor === undefined) continue;
    if (!resolved.endsWith('.md')) broken.push({ file, url, problem: 'an anchor into a file that is not Markdown' });
    else if (!anchorsOf(resolved === file ? tree : read(resolved)).has(decodeURIComponent(anchor)))
      broken.push({ file, url, problem: `no heading of ${path.basename(resolved)} has the anchor #${anchor}` });
  }
  return broken;
}

/** How many relative links a document has (so a check over them is known to have looked at some). */
export const relativeLinkCount = (tree: Root): number =>
  [...walk(tree)].filter(
    (node) => (node.type === 'link' || node.type === 'definition') && !/^[a-z][a-z0-9+.-]*:/i.test(node.url),
  ).length;
