import path from 'node:path';
import ts from 'typescript';
import { parseMarkdown, textOf, walk } from '../docs/markdown.js';

/**
 * The info-string word that marks a code block the compiler checks but nothing runs (```ts compile-only): a snippet
 * that only makes sense inside a deployment, such as a webhook receiver that listens until stopped.
 */
const COMPILE_ONLY = 'compile-only';

/** A TypeScript code block of a Markdown document. */
export interface Snippet {
  /** The text of the heading it is under. */
  heading: string;
  /** Where a reader finds it: the heading and the line of its opening fence. */
  name: string;
  code: string;
  /** The document's line of the code's first line, so a diagnostic can point into the document. */
  firstLine: number;
  compileOnly: boolean;
}

/** Every ```ts and ```typescript block of a Markdown document, in document order. */
export function typeScriptSnippets(markdown: string, file = 'README.md'): Snippet[] {
  const snippets: Snippet[] = [];
  let heading = '(before the first heading)';
  for (const node of walk(parseMarkdown(markdown))) {
    if (node.type === 'heading') heading = textOf(node);
    if (node.type !== 'code' || (node.lang !== 'ts' && node.lang !== 'typescript')) continue;
    const fence = node.position!.start.line;
    snippets.push({
      heading,
      name: `“${heading}” (${file}:${fence})`,
      code: node.value,
      firstLine: fence + 1,
      compileOnly: (node.meta ?? '').split(/\s+/).includes(COMPILE_ONLY),
    });
  }
  return snippets;
}

/** As strict as an integrator's project can be: what the SDK promises to compile under. */
const STRICT: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  types: ['node'],
  noEmit: true,
  // The snippets' every use of the declarations is still checked; the declarations themselves are checked without
  // it by package.test.ts. Skipping them keeps this at a fraction of the time on a busy machine.
  skipLibCheck: true,
};

function describeDiagnostic(diagnostic: ts.Diagnostic, snippets: ReadonlyMap<string, Snippet>): string {
  const message = `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  const snippet = diagnostic.file && snippets.get(diagnostic.file.fileName);
  if (!diagnostic.file || !snippet) return `${diagnostic.file?.fileName ?? 'the compiler'}: ${message}`;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
  return `${snippet.name}, line ${snippet.firstLine + line} column ${character + 1}: ${message}`;
}

/**
 * Type-checks each snippet as an ES module of `project` (a directory whose node_modules has the SDK and what the
 * snippets import), under STRICT, in one program. Returns every diagnostic, each naming its snippet and the
 * document's line; none when all compile. The snippets are given to the compiler, not written to `project`.
 */
export function snippetDiagnostics(project: string, snippets: readonly Snippet[]): string[] {
  const files = new Map(snippets.map((snippet, index) => [path.join(project, `snippet-${index}.mts`), snippet]));
  const host = ts.createCompilerHost(STRICT);
  const { getSourceFile, fileExists, readFile } = host;
  host.getCurrentDirectory = () => project;
  host.fileExists = (name) => files.has(name) || fileExists(name);
  host.readFile = (name) => files.get(name)?.code ?? readFile(name);
  host.getSourceFile = (name, languageVersion, ...rest) => {
    const snippet = files.get(name);
    return snippet
      ? ts.createSourceFile(name, snippet.code, languageVersion)
      : getSourceFile(name, languageVersion, ...rest);
  };
  const program = ts.createProgram([...files.keys()], STRICT, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => describeDiagnostic(diagnostic, files));
}
