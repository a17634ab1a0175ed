/**
 * The documentation the generated types carry, read from the contract's runtime schemas: each method's JSDoc (summary,
 * description, rate class, error codes, the channelId rule, one example) and each field's `.describe()` text, so the
 * language service shows on hover what the OpenAPI and the Postman collection say. An endpoint or field added to the
 * contract is documented by the next build, with nothing to write here.
 */
import { channelIdParam, WEBHOOK_EVENTS, type ContractEndpoint, type ContractRoute } from '@switchboard/contract';
import ts from 'typescript';
import type { z } from 'zod';

type Schema = z.ZodTypeAny;
type Def = Record<string, unknown> & { typeName?: string; description?: string };

const defOf = (schema: Schema) => schema._def as Def;

/** The component name a `named()` schema carries (`Contact`, `Message`), if any. */
export const titleOf = (schema: Schema): string | undefined => {
  const title = (schema as { metaOpenApi?: { title?: unknown } }).metaOpenApi?.title;
  return typeof title === 'string' ? title : undefined;
};

/** Through optional, nullable, default, effects, branded, lazy and readonly wrappers to the schema they wrap. */
export function unwrap(schema: Schema): Schema {
  const def = defOf(schema);
  const inner = (def.innerType ?? def.schema ?? def.type_ ?? (def.getter as (() => Schema) | undefined)?.()) as
    Schema | undefined;
  if (def.typeName === 'ZodBranded') return unwrap(def.type as Schema);
  if (def.typeName === 'ZodPipeline') return unwrap(def.in as Schema);
  return inner && def.typeName !== 'ZodArray' ? unwrap(inner) : schema;
}

/** The first description on the way in (`.describe()` may sit on the field or on what it wraps). */
function descriptionOf(schema: Schema): string | undefined {
  for (let at: Schema | undefined = schema; at;) {
    const def = defOf(at);
    if (def.description) return def.description;
    const next = (def.innerType ?? def.schema ?? (def.typeName === 'ZodBranded' ? def.type : undefined)) as
      Schema | undefined;
    at = next;
  }
  return undefined;
}

const shapeOf = (schema: Schema): Record<string, Schema> | undefined => {
  const def = defOf(schema);
  return def.typeName === 'ZodObject' ? (def.shape as () => Record<string, Schema>)() : undefined;
};

const optionsOf = (schema: Schema): Schema[] | undefined => {
  const def = defOf(schema);
  if (def.typeName === 'ZodUnion') return def.options as Schema[];
  if (def.typeName === 'ZodDiscriminatedUnion') return [...(def.options as Schema[])];
  return undefined;
};

/** A JSDoc block, indented to sit before a member at `indent`; `*\/` in the text cannot end it early. */
export function jsDoc(text: string, indent: string): string {
  const lines = text.replaceAll('*/', '*\\/').trimEnd().split('\n');
  if (lines.length === 1) return `/** ${lines[0]} */\n${indent}`;
  return `/**\n${lines.map((line) => `${indent} *${line ? ` ${line}` : ''}`).join('\n')}\n${indent} */\n${indent}`;
}

const propertyName = (member: ts.TypeElement) =>
  member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) ? member.name.text : undefined;

/** The union member among `options` whose keys hold every key of `members` (and whose literal fields agree). */
function matchingOption(members: readonly ts.TypeElement[], options: readonly Schema[]): Schema | undefined {
  const names = members.map(propertyName).filter((name): name is string => name !== undefined);
  const fits = (option: Schema) => {
    const shape = shapeOf(unwrap(option));
    if (!shape) return false;
    return names.every((name) => name in shape) && literalsAgree(members, shape);
  };
  return options.find(fits);
}

/** A member typed as one string literal (`type: 'text'`) must match its field's literal or enum in the option. */
function literalsAgree(members: readonly ts.TypeElement[], shape: Record<string, Schema>): boolean {
  return members.every((member) => {
    const name = propertyName(member);
    const type = ts.isPropertySignature(member) ? member.type : undefined;
    if (!name || !type || !ts.isLiteralTypeNode(type) || !ts.isStringLiteral(type.literal)) return true;
    const field = unwrap(shape[name]!);
    const def = defOf(field);
    if (def.typeName === 'ZodLiteral') return def.value === type.literal.text;
    if (def.typeName === 'ZodEnum') return (def.values as string[]).includes(type.literal.text);
    return true;
  });
}

/** Where to insert each field's JSDoc in the generated text: position → comment. */
export type Insertions = Map<number, string>;

/**
 * Walks a printed type alongside the schema it was printed from and records each described field's JSDoc. A named
 * type met inside (`data: Contact[]`) is documented at its own declaration, so the walk stops at references.
 */
export function documentType(node: ts.Node, schema: Schema, source: ts.SourceFile, out: Insertions): void {
  const inner = unwrap(schema);
  if (ts.isParenthesizedTypeNode(node) || ts.isTypeOperatorNode(node))
    return documentType(node.type, schema, source, out);
  if (ts.isArrayTypeNode(node)) {
    const def = defOf(inner);
    if (def.typeName === 'ZodArray') documentType(node.elementType, def.type as Schema, source, out);
    return;
  }
  if (ts.isUnionTypeNode(node) || ts.isIntersectionTypeNode(node)) {
    for (const member of node.types) documentType(member, schema, source, out);
    return;
  }
  const members = ts.isTypeLiteralNode(node) || ts.isInterfaceDeclaration(node) ? node.members : undefined;
  if (!members) return;
  const options = optionsOf(inner);
  const object = options ? matchingOption(members, options) : inner;
  const shape = object && shapeOf(unwrap(object));
  if (!shape) return;
  for (const member of members) {
    const name = propertyName(member);
    const field = name === undefined ? undefined : shape[name];
    if (!field || !ts.isPropertySignature(member)) continue;
    const deprecated = (field as { metaOpenApi?: { deprecated?: boolean } }).metaOpenApi?.deprecated;
    const description = deprecated ? `${descriptionOf(field) ?? ''}\n\n@deprecated` : descriptionOf(field);
    if (description) {
      const start = member.getStart(source);
      out.set(start, jsDoc(description, ' '.repeat(source.getLineAndCharacterOfPosition(start).character)));
    }
    if (member.type) documentType(member.type, field, source, out);
  }
}

/** Each code an endpoint can fail with, from its failure responses' `error` enums. */
function errorCodes(route: ContractRoute): string[] {
  return Object.entries(route.responses)
    .filter(([status]) => status !== '200')
    .flatMap(([, envelope]) => (defOf(shapeOf(envelope)?.error ?? envelope).values as string[] | undefined) ?? []);
}

/** The rule every workspace endpoint shares, stated once here and on the `channelId` field (its describe text). */
const CHANNEL_RULE = `\`channelId\`: ${descriptionOf(channelIdParam)}`;

/** The contract's description without the paragraph about GET, which the SDK never sends. */
function descriptionText(route: ContractRoute): string {
  return (route.description ?? '')
    .split('\n\n')
    .filter((paragraph) => !paragraph.startsWith('Accepts POST with a JSON body'))
    .join('\n\n');
}

/** A method's JSDoc: summary, description (with rate class and access), the channelId rule, errors, an example. */
export function methodDoc({ at, post }: ContractEndpoint): string {
  const { metadata } = post;
  const bodyShape = shapeOf(unwrap(post.body as Schema)) ?? {};
  const example = JSON.stringify(metadata.example, null, 2).replace(/^(\s*)"(\w+)":/gm, '$1$2:');
  return [
    `${post.summary}.`.replace(/\.\.$/, '.'),
    '',
    descriptionText(post),
    ...('channelId' in bodyShape ? ['', CHANNEL_RULE] : []),
    '',
    `Errors (\`error.code\`): ${errorCodes(post)
      .map((code) => `\`${code}\``)
      .join(', ')}; \`http_<status>\` for a reply that is not the API's envelope.`,
    '',
    '@example',
    '```ts',
    `const reply = await sb.${at.join('.')}(${example});`,
    '```',
  ].join('\n');
}

/** Every titled schema the contract's routes and webhook events reach, by title (the first met of each). */
export function namedSchemas(routes: readonly ContractRoute[]): Map<string, Schema> {
  const found = new Map<string, Schema>();
  const seen = new Set<Schema>();
  const visit = (schema: Schema | undefined) => {
    if (!schema || seen.has(schema)) return;
    seen.add(schema);
    const title = titleOf(schema);
    const inner = unwrap(schema);
    if (title && !found.has(title)) found.set(title, inner);
    const def = defOf(inner);
    if (def.typeName === 'ZodArray') visit(def.type as Schema);
    for (const option of optionsOf(inner) ?? []) visit(option);
    for (const field of Object.values(shapeOf(inner) ?? {})) visit(field);
    if (inner !== schema) visit(inner);
  };
  for (const route of routes) {
    visit(route.body as Schema | undefined);
    for (const response of Object.values(route.responses)) visit(response);
  }
  for (const event of Object.values(WEBHOOK_EVENTS)) visit(event.schema as Schema);
  return found;
}
