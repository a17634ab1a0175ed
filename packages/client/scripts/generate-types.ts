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
import {
  contract,
  contractEndpoints,
  ERROR_CODES,
  WEBHOOK_EVENT_TYPES,
  type ContractEndpoint,
} from '@switchboard/contract';
import ts from 'typescript';
import type { z } from 'zod';
import { GETTERS } from '../src/getters.js';
import { documentType, jsDoc, methodDoc, namedSchemas, titleOf, unwrap, type Insertions } from './contract-docs.js';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const GENERATED_FILE = path.join(PACKAGE_DIR, 'src/generated/api.ts');
/** The few values the SDK needs from the contract at run time, as constants: errors.ts and the webhooks entry import
 * them instead of the contract, so a bundle of `isSwitchboardError` or `verifyWebhook` holds neither zod nor it. */
export const CONSTANTS_FILE = path.join(PACKAGE_DIR, 'src/generated/constants.ts');
/** The webhook event types by name, which `@switchboard/client/webhooks` re-exports. */
export const EVENTS_FILE = path.join(PACKAGE_DIR, 'src/generated/events.ts');
const PROBE_FILE = path.join(PACKAGE_DIR, 'src/generated/probe.ts');

/** The contract's own named types, published as they are. */
const CONTRACT_TYPES = [
  'Automation',
  'BroadcastAudienceInput',
  'BillingCycle',
  'Channel',
  'Contact',
  'CustomField',
  'ErrorCode',
  'ErrorEnvelope',
  'Interactive',
  'InteractiveReply',
  'Label',
  'Location',
  'MessageStatus',
  'Pagination',
  'Plan',
  'Platform',
  'PlatformUser',
  'Reaction',
  'Template',
  'Ticket',
  'TicketCreateParams',
  'TicketManageParams',
  'TicketStatus',
  'TicketSummary',
  'TicketUpdateParams',
  'WebhookChangeParams',
  'WebhookCreateParams',
  'WebhookDelivery',
  'WebhookEndpoint',
  'WebhookEndpointWithSecret',
  'WebhookEventType',
  'WebhookManageParams',
  'WebhookRedeliverParams',
  'WebhookRotateParams',
];
/** Endpoints whose method is declared by hand, with overloads where a parameter decides the reply's shape. */
const METHOD_OVERRIDES: Record<string, { type: string; from: string }> = {
  'platform.webhooks.manage': { type: 'WebhooksManageMethod', from: '../webhook-manage.js' },
};
/** The contract's parameter types of hand-declared methods, documented from their endpoint's parameters. */
const PARAMS_TYPES: Record<string, string> = {
  WebhookCreateParams: 'platform.webhooks.manage',
  WebhookChangeParams: 'platform.webhooks.manage',
  WebhookRotateParams: 'platform.webhooks.manage',
  WebhookRedeliverParams: 'platform.webhooks.manage',
  WebhookManageParams: 'platform.webhooks.manage',
};
/** Aliases the probe computes for the printer's decisions, not published. */
const PROBE_ONLY = /(ParamsOptional|Paged)$|^Flat$/;
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

/** The contract's endpoints, found through its `Contract` type, and its webhook event types (`ticket.closed`, …). */
function contractShape(): { endpoints: Endpoint[]; events: string[] } {
  const { checker, source } = createChecker(
    `import type { Contract, WebhookEventType } from '@switchboard/contract';\n` +
      `export type Probe = Contract;\nexport type Events = WebhookEventType;\n`,
  );
  const [api, events] = source.statements.filter(ts.isTypeAliasDeclaration).map((a) => checker.getTypeAtLocation(a));
  const eventTypes = (events!.isUnion() ? events!.types : [events!]).map(
    (type) => (type as ts.StringLiteralType).value,
  );
  return { endpoints: endpoints(checker, api!), events: eventTypes };
}

/** `ticket.closed` → `TicketClosedEvent`, as the contract names each event's component schema. */
const eventTypeName = (event: string) => `${event.split('.').map(pascal).join('')}Event`;

const access = (at: readonly string[]) => `Contract${at.map((part) => `['${part}']`).join('')}['post']`;

/**
 * The resource each endpoint returns, by the name its schema has in the contract (`Message`, `Conversation`,
 * `AutomationRun`): a reply's `data`, or a list's item. Each becomes a published type, the very one the methods
 * return, so a resource added to the contract (with `named()`, as every reply's data is) is named by the next build.
 */
export function resourceTypes(list: readonly ContractEndpoint[] = contractEndpoints(contract)): Map<string, string> {
  const found = new Map<string, string>();
  for (const { at, post } of list) {
    const data = (post.responses[200] as z.AnyZodObject | undefined)?.shape?.data as z.ZodTypeAny | undefined;
    if (!data) continue;
    const item = data._def.typeName === 'ZodArray' ? (data._def as z.ZodArrayDef).type : undefined;
    const title = titleOf(item ?? data);
    if (!title || found.has(title) || CONTRACT_TYPES.includes(title)) continue;
    found.set(title, `z.output<${access(at)}['responses'][200]>['data']${item ? '[number]' : ''}`);
  }
  return found;
}

function probeSource(list: readonly Endpoint[], events: readonly string[]): string {
  const resources = [...resourceTypes()].map(([name, type]) => `type ${name} = Flat<${type}>;`);
  return [
    `import type * as C from '@switchboard/contract';`,
    `import type { Contract } from '@switchboard/contract';`,
    `import type { z } from 'zod';`,
    // Flattened (each form of a union on its own), so `Omit<…> & {…}` prints as the object it makes.
    'type Flat<T> = T extends unknown ? { [K in keyof T]: T[K] } : never;',
    ...CONTRACT_TYPES.map((name) => `type ${name} = Flat<C.${name}>;`),
    ...resources,
    ...events.map((event) => `type ${eventTypeName(event)} = C.WebhookEventOf<'${event}'>;`),
    `type SwitchboardEvent = C.WebhookEvent;`,
    ...list.flatMap((endpoint) => [
      `type ${endpoint.name}Params = Flat<z.input<${access(endpoint.path)}['body']>>;`,
      `type ${endpoint.name}Response = z.output<${access(endpoint.path)}['responses'][200]>;`,
      `type ${endpoint.name}ErrorCode = z.output<${access(endpoint.path)}['responses'][Exclude<keyof ` +
        `${access(endpoint.path)}['responses'], 200>]>['error'];`,
      `type ${endpoint.name}ParamsOptional = {} extends ${endpoint.name}Params ? true : false;`,
      `type ${endpoint.name}Paged = ${endpoint.name}Response extends { pagination: C.Pagination } ? true : false;`,
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
  member: (endpoint: Endpoint) => { doc: string; type: string },
  at: readonly string[],
  extra: (at: readonly string[]) => string[] = () => [],
): string[] {
  const depth = at.length;
  const inGroup = list.filter((endpoint) => at.every((part, index) => endpoint.path[index] === part));
  const members = [...new Set(inGroup.map((endpoint) => endpoint.path[depth]!))];
  const lines = members.map((name) => {
    const leaf = inGroup.find((endpoint) => endpoint.path.length === depth + 1 && endpoint.path[depth] === name);
    if (!leaf) return `  ${name}: ${groupName([...at, name])};`;
    const { doc, type } = member(leaf);
    return `  ${jsDoc(doc, '  ')}${name}: ${type};`;
  });
  const subgroups = members.filter(
    (name) => !inGroup.some((endpoint) => endpoint.path.length === depth + 1 && endpoint.path[depth] === name),
  );
  return [
    `export interface ${groupName(at)} {\n${[...lines, ...extra(at)].join('\n')}\n}`,
    ...subgroups.flatMap((name) => groupInterfaces(list, member, [...at, name], extra)),
  ];
}

const groupName = (at: readonly string[]) => `${at.map(pascal).join('') || 'Switchboard'}Api`;

/**
 * An endpoint's method type (method.ts): a list's has `.all()`, and the parameters are optional when none is
 * required; METHOD_OVERRIDES name the hand-written ones.
 */
function methodType(
  endpoint: Endpoint,
  printed: ReadonlyMap<string, { text: string }>,
  params: string,
  rateClass: string,
): string {
  const override = METHOD_OVERRIDES[endpoint.path.join('.')];
  if (override) return override.type;
  const paged = printed.get(`${endpoint.name}Paged`)!.text === 'true';
  const optional = printed.get(`${endpoint.name}ParamsOptional`)!.text === 'true';
  const kind = `${paged ? 'ListMethod' : 'Method'}${optional ? 'OptionalParams' : ''}`;
  // A read's options have no idempotencyKey (lists are reads: their kind says so).
  const options = !paged && rateClass === 'api_read' ? ', ReadOptions' : '';
  return `${kind}<${params}, ${endpoint.name}Response, ${endpoint.name}ErrorCode${options}>`;
}

/** The `get(id)` of a group whose list filters by its items' id (getters.ts), typed after that list. */
function getterMembers(at: readonly string[]): string[] {
  const getter = (GETTERS as Record<string, { idParam: string; notFound: string }>)[at.join('.')];
  if (!getter) return [];
  const list = typeName([...at, 'list']);
  const doc =
    `One item by its id, through ${at.slice(1).join('/')}/list's \`${getter.idParam}\` filter: ` +
    `\`{ success, data }\`; not there: NotFoundError \`${getter.notFound}\`.\n\n@example\n\`\`\`ts\n` +
    `const { data } = await sb.${at.join('.')}.get(id${at[0] === 'platform' ? ', { platformId }' : ''});\n\`\`\``;
  return [`  ${jsDoc(doc, '  ')}get: GetMethod<${list}Params, ${list}Response['data'][number]>;`];
}

export function generateApiTypes(): string {
  const { endpoints: list, events } = contractShape();
  const printed = printAliases(probeSource(list, events));
  const publishedNames = [...CONTRACT_TYPES, ...resourceTypes().keys()];
  const runtime = new Map(contractEndpoints(contract).map((endpoint) => [endpoint.at.join('.'), endpoint]));
  const named = new Map(
    [...printed].filter(([name]) => !PROBE_ONLY.test(name)).map(([name, { text }]) => [name, text]),
  );
  // Longest first, so a structure that contains another is replaced whole.
  const byLength = new Map(
    [...named]
      .filter(([name]) => publishedNames.includes(name) || events.map(eventTypeName).includes(name))
      .sort(([, a], [, b]) => b.length - a.length),
  );
  const bodies = new Map([...named].map(([name, text]) => [name, referToNames(text, byLength, name)]));
  // An endpoint's parameters that are a contract type already (`TicketManageParams`) keep that one name.
  const sameAsContractType = (name: string) =>
    CONTRACT_TYPES.find((type) => bodies.get(name) === type || bodies.get(name) === bodies.get(type));
  const paramsName = (endpoint: Endpoint) => sameAsContractType(`${endpoint.name}Params`) ?? `${endpoint.name}Params`;
  const published = [...bodies].filter(
    ([name]) => !(name.endsWith('Params') && !CONTRACT_TYPES.includes(name) && sameAsContractType(name)),
  );
  const declarations = published.map(([name, body]) =>
    printed.get(name)!.isObject && body.startsWith('{')
      ? `export interface ${name} ${body}`
      : `export type ${name} = ${body};`,
  );
  const imports = [...new Set(Object.values(METHOD_OVERRIDES).map(({ from }) => from))].map(
    (from) =>
      `import type { ${Object.values(METHOD_OVERRIDES)
        .filter((override) => override.from === from)
        .map((override) => override.type)
        .join(', ')} } from '${from}';`,
  );
  const text = [
    '// Generated by packages/client/scripts/generate-types.ts from the contract: do not edit by hand.',
    `import type { ListMethod, ListMethodOptionalParams, Method, MethodOptionalParams } from '../method.js';`,
    `import type { ReadOptions } from '../request-options.js';`,
    `import type { GetMethod } from '../get-method.js';`,
    ...imports,
    ...declarations,
    '/** Every endpoint of the API, grouped like its paths: `sb.workspace.contacts.list({ search })`. */',
    ...groupInterfaces(
      list,
      (endpoint) => ({
        doc: methodDoc(runtime.get(endpoint.path.join('.'))!),
        type: methodType(
          endpoint,
          printed,
          paramsName(endpoint),
          runtime.get(endpoint.path.join('.'))!.post.metadata.rateClass,
        ),
      }),
      [],
      getterMembers,
    ),
  ].join('\n');
  // Reprinted by the compiler: one member per line, whatever the length of the printed types.
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const reprinted = printer.printFile(ts.createSourceFile(GENERATED_FILE, text, ts.ScriptTarget.ES2023, true));
  return withFieldDocs(reprinted, schemasByName(list, paramsName));
}

/** The schema each published type was printed from: parameters, replies, the contract's named schemas, events. */
function schemasByName(
  list: readonly Endpoint[],
  paramsName: (endpoint: Endpoint) => string,
): Map<string, z.ZodTypeAny> {
  const runtime = contractEndpoints(contract);
  const byTitle = namedSchemas(runtime.map(({ post }) => post));
  const schemas = new Map<string, z.ZodTypeAny>(byTitle);
  for (const endpoint of list) {
    const route = runtime.find(({ at }) => at.join('.') === endpoint.path.join('.'))!.post;
    if (!schemas.has(paramsName(endpoint)) && route.body) schemas.set(paramsName(endpoint), route.body);
    schemas.set(`${endpoint.name}Response`, route.responses[200]!);
  }
  for (const [name, operation] of Object.entries(PARAMS_TYPES)) {
    const route = runtime.find(({ at }) => at.join('.') === operation)!.post;
    schemas.set(name, route.body!);
  }
  return schemas;
}

/** The generated text with each field's `.describe()` text as its JSDoc (see contract-docs.ts). */
function withFieldDocs(text: string, schemas: ReadonlyMap<string, z.ZodTypeAny>): string {
  const source = ts.createSourceFile(GENERATED_FILE, text, ts.ScriptTarget.ES2023, true);
  const insertions: Insertions = new Map();
  for (const statement of source.statements) {
    const declared = ts.isInterfaceDeclaration(statement)
      ? statement
      : ts.isTypeAliasDeclaration(statement)
        ? statement.type
        : undefined;
    const name = (statement as ts.DeclarationStatement).name?.getText(source);
    const schema = name === undefined ? undefined : schemas.get(name);
    if (declared && schema) documentType(declared, unwrap(schema) === schema ? schema : schema, source, insertions);
  }
  let documented = text;
  for (const [position, comment] of [...insertions].sort(([a], [b]) => b - a))
    documented = documented.slice(0, position) + comment + documented.slice(position);
  return documented;
}

/** Every event's body type (`TicketClosedEvent`, …) and their union, for the webhooks entry to re-export. */
export function generateEventExports(): string {
  const names = ['SwitchboardEvent', 'WebhookEventType', ...WEBHOOK_EVENT_TYPES.map(eventTypeName)];
  return [
    '// Generated by packages/client/scripts/generate-types.ts from the contract: do not edit by hand.',
    `export type { ${names.join(', ')} } from './api.js';`,
    '',
  ].join('\n');
}

/** errors.ts and webhook-signature.ts read these instead of importing the contract (and zod with it). */
export function generateConstants(): string {
  return [
    '// Generated by packages/client/scripts/generate-types.ts from the contract: do not edit by hand.',
    `import type { ErrorCode, WebhookEventType } from './api.js';`,
    '',
    '/** Every `error` code of the API. */',
    `export const ERROR_CODES: readonly ErrorCode[] = ${JSON.stringify(ERROR_CODES)};`,
    '/** Every webhook event type. */',
    `export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = ${JSON.stringify(WEBHOOK_EVENT_TYPES)};`,
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(path.dirname(GENERATED_FILE), { recursive: true });
  writeFileSync(GENERATED_FILE, generateApiTypes());
  writeFileSync(CONSTANTS_FILE, generateConstants());
  writeFileSync(EVENTS_FILE, generateEventExports());
}
