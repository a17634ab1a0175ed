import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** What an editor shows on hover: the documentation text and the JSDoc tags (`@example`). */
export interface Hover {
  documentation: string;
  tags: string[];
}

/**
 * Asks the TypeScript language service, as an editor does, for the hover text at the last character of each probe's
 * first occurrence in `source` (a file written in `project`, which has the SDK installed).
 */
export function hoverTexts(project: string, source: string, probes: readonly string[]): Map<string, Hover> {
  const file = path.join(project, 'hover.mts');
  const options: ts.CompilerOptions = {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: ['node'],
  };
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [file],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) =>
      name === file
        ? ts.ScriptSnapshot.fromString(source)
        : ts.sys.fileExists(name)
          ? ts.ScriptSnapshot.fromString(readFileSync(name, 'utf8'))
          : undefined,
    getCurrentDirectory: () => project,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (settings) => ts.getDefaultLibFilePath(settings),
    fileExists: (name) => name === file || ts.sys.fileExists(name),
    readFile: (name) => (name === file ? source : ts.sys.readFile(name)),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host);
  return new Map(
    probes.map((probe) => {
      const at = source.indexOf(probe);
      if (at < 0) throw new Error(`probe ${probe} is not in the source`);
      const info = service.getQuickInfoAtPosition(file, at + probe.length - 1);
      return [
        probe,
        {
          documentation: ts.displayPartsToString(info?.documentation),
          tags: (info?.tags ?? []).map((tag) => tag.name),
        },
      ];
    }),
  );
}
