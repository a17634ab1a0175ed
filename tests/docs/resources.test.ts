import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { contract } from '@switchboard/contract';
import type { TableCell } from 'mdast';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/processes.js';
import { codeSpans, readMarkdown, tableUnder, textOf } from './markdown.js';

const CONTRACT_DIR = path.join(REPO_ROOT, 'packages/contract/src');
const MODULES_DIR = path.join(REPO_ROOT, 'apps/server/src/modules');

interface Row {
  resource: string;
  contractFiles: string[];
  module: string;
  sdkPaths: string[];
}

/** docs/architecture.md's resource table: resource → contract file(s) → module → SDK path(s). */
function resourceTable(): Row[] {
  const table = tableUnder(readMarkdown(path.join(REPO_ROOT, 'docs/architecture.md')), 'One resource, one name');
  if (!table) throw new Error('docs/architecture.md has no table under "One resource, one name"');
  return table.children.slice(1).map((row) => {
    const [resource, files, module, paths] = row.children as [TableCell, TableCell, TableCell, TableCell];
    return {
      resource: textOf(resource).trim(),
      contractFiles: codeSpans(files),
      module: codeSpans(module)[0] ?? '',
      // A row without an API path explains why in prose, which may quote a header or a command.
      sdkPaths: codeSpans(paths).filter((span) => /^(workspace|platform)\./.test(span)),
    };
  });
}

/** Every endpoint of the contract by its SDK path (`workspace.chat.message.send`), found by its `{ post, get }`. */
function endpointPaths(node: object, at: string[] = []): string[] {
  if ('post' in node && 'get' in node) return [at.join('.')];
  return Object.entries(node).flatMap(([key, child]) => endpointPaths(child as object, [...at, key]));
}

const contractFiles = () =>
  ['platform', 'workspace'].flatMap((area) =>
    readdirSync(path.join(CONTRACT_DIR, area))
      .filter((file) => file.endsWith('.ts') && file !== 'index.ts' && !file.endsWith('.test.ts'))
      .map((file) => `${area}/${file}`),
  );
const moduleFolders = () =>
  readdirSync(MODULES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

describe('docs/architecture.md: one resource, one name', () => {
  const rows = resourceTable();

  it('has a row for every module folder and every contract file, and none for what does not exist', () => {
    expect(rows.map((row) => row.module).sort()).toEqual(moduleFolders().sort());
    expect(rows.flatMap((row) => row.contractFiles).sort()).toEqual(contractFiles().sort());
  });

  it('names the resource, its module and its contract file with the same word', () => {
    for (const row of rows) {
      expect(row.module, row.resource).toBe(row.resource);
      if (row.contractFiles.length > 0)
        expect(path.basename(row.contractFiles[0]!, '.ts'), row.resource).toBe(row.module);
    }
  });

  it('gives every endpoint one row, defined in that row’s contract file and routed by its module', () => {
    const endpoints = endpointPaths(contract);
    const owners = new Map(rows.flatMap((row) => row.sdkPaths.map((sdkPath) => [sdkPath, row] as const)));
    expect(owners.size, 'an SDK path listed twice').toBe(rows.flatMap((row) => row.sdkPaths).length);
    for (const endpoint of endpoints) {
      // An endpoint at a group's place (`workspace.me`) is its own row's path.
      const group = owners.has(endpoint) ? endpoint : endpoint.slice(0, endpoint.lastIndexOf('.'));
      const row = owners.get(group);
      expect(row, `${endpoint}: no row lists ${group}`).toBeDefined();
      const sources = row!.contractFiles.map((file) => readFileSync(path.join(CONTRACT_DIR, file), 'utf8'));
      expect(
        sources.some((source) => source.includes(`operation: '${endpoint}'`)),
        `${endpoint} is not defined in ${row!.contractFiles.join(', ')}`,
      ).toBe(true);
      const manifest = readFileSync(path.join(MODULES_DIR, row!.module, 'index.ts'), 'utf8');
      expect(manifest, `${row!.module} does not route ${group}`).toMatch(new RegExp(`contract\\.${group}\\b(?!\\.)`));
    }
    for (const group of owners.keys())
      expect(
        endpoints.some((endpoint) => endpoint === group || endpoint.startsWith(`${group}.`)),
        `${group} has no endpoint`,
      ).toBe(true);
  });
});
