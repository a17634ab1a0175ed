import path from 'node:path';
import { CONFIG_VARIABLES, loadConfig } from '@switchboard/server';
import type { TableCell } from 'mdast';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/processes.js';
import { codeSpans, readMarkdown, tableUnder, textOf } from './markdown.js';

interface DocumentedVariable {
  name: string;
  /** The default as the table writes it: the code span at the variable's position in the Default cell, if any. */
  written?: string;
  /** The Default cell as text. */
  cell: string;
  /** Whether the cell has prose beside its code spans (a default derived from something else, explained). */
  explained: boolean;
}

/** The README's configuration table: one row per variable, or per group of variables sharing a row. */
function documentedVariables(): DocumentedVariable[] {
  const table = tableUnder(readMarkdown(path.join(REPO_ROOT, 'README.md')), 'Configuration');
  if (!table) throw new Error('README.md has no table under its "Configuration" heading');
  return table.children.slice(1).flatMap((row) => {
    const [names, defaults] = row.children as [TableCell, TableCell];
    const written = codeSpans(defaults);
    const cell = textOf(defaults).trim();
    const prose = defaults.children.some((node) => node.type === 'text' && !/^[\s,]*$/.test(node.value));
    return codeSpans(names).map((name, i) => ({ name, written: written[i], cell, explained: prose }));
  });
}

/** How the table writes a parsed default: lists comma-separated, the data directory relative to the checkout. */
function asWritten(value: unknown): string {
  if (Array.isArray(value)) return value.join(',');
  const text = String(value);
  return text.startsWith(REPO_ROOT) ? `<repo>${text.slice(REPO_ROOT.length)}` : text;
}

describe('the README configuration table', () => {
  const documented = documentedVariables();
  const defaults = loadConfig({}) as Record<string, unknown>;

  it('lists every variable config.ts reads, each once, and nothing else', () => {
    const names = documented.map((variable) => variable.name);
    expect(
      names.filter((name, i) => names.indexOf(name) !== i),
      'listed twice',
    ).toEqual([]);
    expect([...names].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('gives each variable the default the schema applies', () => {
    const wrong = documented.flatMap(({ name, written, cell }) => {
      const value = defaults[name];
      return value !== undefined && written !== asWritten(value)
        ? [
            `${name}: the table says ${JSON.stringify(cell)}, ` +
              `the schema's default is ${JSON.stringify(asWritten(value))}`,
          ]
        : [];
    });
    expect(wrong).toEqual([]);
  });

  it('claims no literal default for a variable without one (— or how it is derived)', () => {
    const claimed = documented.filter(
      ({ name, cell, explained, written }) =>
        defaults[name] === undefined && cell !== '—' && !explained && !written?.includes('$'),
    );
    expect(claimed.map(({ name, cell }) => `${name}: ${cell}`)).toEqual([]);
  });
});
