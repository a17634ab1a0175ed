/**
 * Writes src/generated/api.ts: the SDK's public types as plain TypeScript, computed from the contract.
 *
 * The types are the ones the contract already infers (zod `input` for parameters, `output` for replies, including
 * hand-narrowed inputs such as withFieldRules): the TypeScript compiler resolves them and prints their structure, so
 * the
 * published declarations name `ContactsListParams` instead of carrying ts-rest and zod generics. We print with the
 * compiler rather than convert the zod schemas (zod-to-ts) because only the compiler sees those narrowed inputs.
 * The client's build runs it first (turbo task `generate`), so the file always follows the contract; it is not
 * committed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const GENERATED_FILE = path.join(PACKAGE_DIR, 'src/generated/api.ts');
const PROBE_FILE = path.join(PACKAGE_DIR, 'src/generated/probe.ts');

/** The contract's own named types, published as they are. */
const CONTRACT_TYPES = [
  'Automation',
  'BillingCycle',
  'Channel',
  'Contact',
  'CustomField',
  'ErrorCode',
  'ErrorEnvelope',
  'Label',
  'MessageStatus',
  'Pagination',
  'Plan',
  'Platform',
  'Template',
  'Ticket',
  'TicketCreateParams',
  'TicketManageParams',
  'TicketStatus',
  'TicketUpdateParams',
  'WebhookChangeParams',
  'WebhookCreateParams',
  'WebhookDelivery',
  'WebhookEndpoint',
  'WebhookEventType',
  'WebhookManageParams',
  'WebhookRedeliverParams',
];
/** Endpoints whose type names do not follow from the path (`workspace.` / `platform.` and `chat.` dropped). */
const NAME_OVERRIDES: Record<string, string> = { 'platform.id.list': 'PlatformIdList' };

interface Endpoint {
  path: string[];
  name: string;
}

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function typeName(operation: string[]): string {
  const key = operation.join('.');
  return (
    NAME_OVERRIDES[key] ??
    operation
      .filter((part, index) => index > 0 && part !== 'chat')
      .map(pascal)
      .join('')
  );
}

/** The endpoints of the contract, found through its type: every node with a `post` route. */
function endpoints(checker: ts.TypeChecker, type: ts.Type, at: string[] = []): Endpoint[] {
  if (type.getProperty('post')) return [{ path: at, name: typeName(at) }];
  return type
    .getProperties()
    .flatMap((property) => endpoints(checker, checker.getTypeOfSymbol(property), [...at, property.name]));
}

function createChecker(probe: string) {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    baseUrl: PACKAGE_DIR,
    // From source, so generating needs no build of the contract.
    paths: { '@switchboard/contract': ['../contract/src/index.ts'] },
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => (file === PROBE_FILE ? probe : readFile(file));
  host.fileExists = (file) => file === PROBE_FILE || ts.sys.fileExists(file);
  host.getSourceFile = (file, language) =>
    file === PROBE_FILE ? ts.createSourceFile(file, probe, language) : getSourceFile(file, language);
  const program = ts.createProgram([PROBE_FILE], options, host);
  return { checker: program.getTypeChecker(), source: program.getSourceFile(PROBE_FILE)! };
}

const PRINT_FLAGS =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.InTypeAlias |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/** Each alias of the probe, printed as its resolved structure. */
function printAliases(probe: string): Map<string, { text: string; isObject: boolean }> {
  const { checker, source } = createChecker(probe);
  const printed = new Map<string, { text: string; isObject: boolean }>();
  for (const statement of source.statements) {
    if (!ts.isTypeAliasDeclaration(statement)) continue;
    const type = checker.getTypeAtLocation(statement.name);
    const isObject = !type.isUnion() && !type.isIntersection() && (type.flags & ts.TypeFlags.Object) !== 0;
    // Endpoints with the same parameters share one type, which keeps the first alias it met (`LabelsListParams =
    // CustomFieldsListParams`): dropped for the print, so each name gets the structure itself.
    const mutable = type as { aliasSymbol?: ts.Symbol; aliasTypeArguments?: readonly ts.Type[] };
    const alias = { symbol: mutable.aliasSymbol, args: mutable.aliasTypeArguments };
    mutable.aliasSymbol = undefined;
    mutable.aliasTypeArguments = undefined;
    // A contract type named inside another (`C.TicketCreateParams`) is published under the same name.
    const text = checker.typeToString(type, statement, PRINT_FLAGS).replace(/\bC\.(\w+)/g, '$1');
    mutable.aliasSymbol = alias.symbol;
    mutable.aliasTypeArguments = alias.args;
    printed.set(statement.name.text, { text, isObject });
  }
  return printed;
}

function contractEndpoints(): Endpoint[] {
  const { checker, source } = createChecker(
    `import type { Contract } from '@switchboard/contract';\nexport type Probe = Contract;\n`,
  );
  const alias = source.statements.find(ts.isTypeAliasDeclaration)!;
  return endpoints(checker, checker.getTypeAtLocation(alias.name));
}

function probeSource(list: readonly Endpoint[]): string {
  const access = (endpoint: Endpoint) => `Contract${endpoint.path.map((part) => `['${part}']`).join('')}['post']`;
  return [
    `import type * as C from '@switchboard/contract';`,
    `import type { Contract } from '@switchboard/contract';`,
    `import type { z } from 'zod';`,
    ...CONTRACT_TYPES.map((name) => `type ${name} = C.${name};`),
    ...list.flatMap((endpoint) => [
      `type ${endpoint.name}Params = z.input<${access(endpoint)}['body']>;`,
      `type ${endpoint.name}Response = z.output<${access(endpoint)}['responses'][200]>;`,
      `type ${endpoint.name}ErrorCode = z.output<${access(endpoint)}['responses'][Exclude<keyof ` +
        `${access(endpoint)}['responses'], 200>]>['error'];`,
      `type ${endpoint.name}ParamsOptional = {} extends ${endpoint.name}Params ? true : false;`,
    ]),
  ].join('\n');
}

/** A named type's structure, wherever it recurs in another, becomes its name (`data: Contact[]`). */
function referToNames(text: string, named: ReadonlyMap<string, string>, self: string): string {
  let result = text;
  for (const [name, structure] of named)
    if (name !== self && structure.startsWith('{')) result = result.split(structure).join(name);
  return result;
}

/**
 * The interface of one group of endpoints, named after its path (`WorkspaceContactsApi`), then those of its subgroups.
 */
function groupInterfaces(
  list: readonly Endpoint[],
  optional: (endpoint: Endpoint) => boolean,
  at: readonly string[],
): string[] {
  const depth = at.length;
  const inGroup = list.filter((endpoint) => at.every((part, index) => endpoint.path[index] === part));
  const members = [...new Set(inGroup.map((endpoint) => endpoint.path[depth]!))];
  const lines = members.map((member) => {
    const leaf = inGroup.find((endpoint) => endpoint.path.length === depth + 1 && endpoint.path[depth] === member);
    if (!leaf) return `  ${member}: ${groupName([...at, member])};`;
    const params = `params${optional(leaf) ? '?' : ''}: ${leaf.name}Params`;
    return `  ${member}: (${params}, options?: RequestOptions) => Promise<${leaf.name}Response>;`;
  });
  const subgroups = members.filter(
    (member) => !inGroup.some((endpoint) => endpoint.path.length === depth + 1 && endpoint.path[depth] === member),
  );
  return [
    `export interface ${groupName(at)} {\n${lines.join('\n')}\n}`,
    ...subgroups.flatMap((member) => groupInterfaces(list, optional, [...at, member])),
  ];
}

const groupName = (at: readonly string[]) => `${at.map(pascal).join('') || 'Switchboard'}Api`;

export function generateApiTypes(): string {
  const list = contractEndpoints();
  const printed = printAliases(probeSource(list));
  const named = new Map(
    [...printed].filter(([name]) => !name.endsWith('ParamsOptional')).map(([name, { text }]) => [name, text]),
  );
  // Longest first, so a structure that contains another is replaced whole.
  const byLength = new Map(
    [...named].filter(([name]) => CONTRACT_TYPES.includes(name)).sort(([, a], [, b]) => b.length - a.length),
  );
  const declarations = [...named].map(([name, text]) => {
    const body = referToNames(text, byLength, name);
    return printed.get(name)!.isObject && body.startsWith('{')
      ? `export interface ${name} ${body}`
      : `export type ${name} = ${body};`;
  });
  const optional = (endpoint: Endpoint) => printed.get(`${endpoint.name}ParamsOptional`)!.text === 'true';
  const text = [
    '// Generated by packages/client/scripts/generate-types.ts from the contract: do not edit by hand.',
    `import type { RequestOptions } from '../create-client.js';`,
    ...declarations,
    '/** Every endpoint of the API, grouped like its paths: `sb.workspace.contacts.list({ search })`. */',
    ...groupInterfaces(list, optional, []),
  ].join('\n');
  // Reprinted by the compiler: one member per line, whatever the length of the printed types.
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  return printer.printFile(ts.createSourceFile(GENERATED_FILE, text, ts.ScriptTarget.ES2023, true));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(path.dirname(GENERATED_FILE), { recursive: true });
  writeFileSync(GENERATED_FILE, generateApiTypes());
}
