/**
 * Derives the MCP tool catalogue from the contract: one tool per endpoint, its schemas read from the OpenAPI document
 * the contract generates (so a tool takes exactly the parameters the API reference documents, with their rules,
 * descriptions and required sets), its annotations from the endpoint's effects.
 */
import {
  contract,
  contractEndpoints,
  endpointEffects,
  MULTI_LINE_TEXT,
  SINGLE_LINE_TEXT,
  type ContractRoute,
} from '@switchboard/contract';
import { buildOpenApi, type OpenAPIObject } from '@switchboard/openapi';
import type { JsonSchema, ToolSpec } from '../src/catalogue.js';

/** MCP's own defaults: a tool whose effects nobody stated is assumed to change, remove and reach the world. */
const UNSTATED = { readOnly: false, destructive: true, idempotent: false, openWorld: true };
/** The description paragraph about GET, which a tool call never uses. */
const HTTP_METHODS_PARAGRAPH = /^Accepts POST with a JSON body or GET/;

/** `/api/workspace/v1/custom-fields/list` → `custom_fields_list`; platform paths keep `platform_` in front. */
function toolName(path: string): string {
  const [, , area, , ...words] = path.split('/');
  return [...(area === 'platform' ? ['platform'] : []), ...words].join('_').replaceAll('-', '_');
}

/** The tools of one resource area: `platform`, or a workspace path's first word (`contacts`, `custom_fields`). */
function groupOf(path: string): string {
  const [, , area, , first] = path.split('/');
  return area === 'platform' ? 'platform' : first!.replaceAll('-', '_');
}

/** Replaces every `#/components/schemas/…` reference with a copy of what it names: a tool's schema stands alone. */
function inlined(schema: unknown, doc: OpenAPIObject, seen: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlined(item, doc, seen));
  if (typeof schema !== 'object' || schema === null) return schema;
  const { $ref, ...rest } = schema as { $ref?: string };
  if (typeof $ref === 'string') {
    const name = $ref.replace('#/components/schemas/', '');
    if (seen.includes(name)) throw new Error(`${name} refers to itself: a tool schema cannot inline it`);
    return { ...(inlined(doc.components!.schemas![name], doc, [...seen, name]) as JsonSchema), ...rest };
  }
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, inlined(value, doc, seen)]));
}

/**
 * The contract's text rules (no control characters, no lone surrogates) as patterns on every string: thousands of
 * tokens in every `tools/list` for what no model writes. A call that breaks one still gets the API's 400 naming the
 * field.
 */
const TEXT_RULES = new Set([SINGLE_LINE_TEXT.pattern.source, MULTI_LINE_TEXT.pattern.source]);

function withoutTextRules(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutTextRules);
  if (typeof schema !== 'object' || schema === null) return schema;
  const kept = Object.entries(schema).filter(([key, value]) => !(key === 'pattern' && TEXT_RULES.has(value as string)));
  return Object.fromEntries(kept.map(([key, value]) => [key, withoutTextRules(value)]));
}

/** Keywords that describe a value rather than constrain it: they stay beside a nullable's `anyOf`. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'deprecated', 'examples', 'example']);

/**
 * OpenAPI 3.1's nullable (`type: ["string", "null"]`) as `anyOf` of single types: legal JSON Schema either way, but
 * clients that map tool schemas onto a single-`type` dialect (Gemini's function declarations) reject the list; the
 * MCP Inspector's `--strict` flags it.
 */
function portableNullables(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(portableNullables);
  if (typeof schema !== 'object' || schema === null) return schema;
  const node = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, portableNullables(value)]));
  const types = node.type;
  if (!Array.isArray(types) || !types.includes('null') || types.length !== 2) return node;
  const outer = Object.fromEntries(Object.entries(node).filter(([key]) => ANNOTATIONS.has(key)));
  const inner = Object.fromEntries(Object.entries(node).filter(([key]) => !ANNOTATIONS.has(key) && key !== 'type'));
  if (Array.isArray(inner.enum)) inner.enum = inner.enum.filter((value) => value !== null);
  return { ...outer, anyOf: [{ type: types.find((type) => type !== 'null'), ...inner }, { type: 'null' }] };
}

/**
 * One form per `action` (automations/manage) or `type` (chat/message/send): the OpenAPI's `oneOf` of whole shapes
 * becomes one object with every field, and a `oneOf` that says which fields each form requires.
 */
function foldVariants(forms: JsonSchema[]): ToolSpec['inputSchema'] {
  const properties: Record<string, JsonSchema> = {};
  for (const form of forms)
    for (const [name, field] of Object.entries(form.properties as Record<string, JsonSchema>)) {
      const known = properties[name];
      // A form narrows the field that picks it to its one value; the field itself takes every form's value.
      properties[name] =
        known?.enum && field.enum
          ? { ...known, enum: [...new Set([...(known.enum as []), ...(field.enum as [])])] }
          : field;
    }
  const discriminator = Object.keys(properties).find((name) =>
    forms.every(
      (form) => ((form.properties as Record<string, JsonSchema>)[name]?.enum as unknown[] | undefined)?.length === 1,
    ),
  );
  if (!discriminator) throw new Error('Forms without a field that picks one of them');
  const picks = (form: JsonSchema) => (form.properties as Record<string, JsonSchema>)[discriminator]!.enum as [string];
  const oneOf = forms.map((form) => ({
    properties: { [discriminator]: { const: picks(form)[0] } },
    required: form.required,
    // The sets the form needs one of (notes/manage's create: contactId or phone).
    ...(form.anyOf !== undefined && {
      anyOf: (form.anyOf as JsonSchema[]).map((set) => ({ required: set.required })),
    }),
  }));
  const requiredByAll = (forms[0]!.required as string[]).filter((name) =>
    forms.every((form) => (form.required as string[]).includes(name)),
  );
  return { type: 'object', properties, required: requiredByAll, additionalProperties: false, oneOf };
}

/**
 * The parameters as one object schema, as MCP wants it at the top. The OpenAPI spells "one of these field sets is
 * required" (tickets/manage: create or update) as an `anyOf` of whole shapes that differ only in `required`, for
 * generators that cannot read bare `required` lists: here the shape is given once, and `anyOf` lists the sets.
 */
function asObject(schema: JsonSchema): ToolSpec['inputSchema'] {
  if (schema.type === 'object') return schema as ToolSpec['inputSchema'];
  // An agent is offered the current forms only: the deprecated ones (webhooks/manage without `action`) still work.
  if (schema.oneOf) return foldVariants((schema.oneOf as JsonSchema[]).filter((form) => !form.deprecated));
  const sets = schema.anyOf as JsonSchema[] | undefined;
  if (!sets?.length) throw new Error(`Parameters that are not an object: ${JSON.stringify(schema)}`);
  const { required: _required, ...shape } = sets[0]!;
  const requiredByAll = (sets[0]!.required as string[]).filter((name) =>
    sets.every((set) => (set.required as string[]).includes(name)),
  );
  const anyOf = sets.map((set) => ({
    required: (set.required as string[]).filter((name) => !requiredByAll.includes(name)),
  }));
  return {
    ...(shape as ToolSpec['inputSchema']),
    ...(requiredByAll.length && { required: requiredByAll }),
    ...(schema.description !== undefined && { description: schema.description }),
    anyOf,
  };
}

function inputSchemaOf(route: ContractRoute, doc: OpenAPIObject): ToolSpec['inputSchema'] {
  const body = doc.paths[route.path]?.post?.requestBody as { content: Record<string, { schema: unknown }> } | undefined;
  if (!body) return { type: 'object', properties: {}, additionalProperties: false };
  return asObject(
    portableNullables(withoutTextRules(inlined(body.content['application/json']!.schema, doc))) as JsonSchema,
  );
}

/** The success envelope's schema without `success`: what a tool's `structuredContent` holds. */
function outputSchemaOf(route: ContractRoute, doc: OpenAPIObject): ToolSpec['outputSchema'] {
  const reply = doc.paths[route.path]!.post!.responses['200'] as { content: Record<string, { schema: unknown }> };
  const envelope = portableNullables(
    withoutTextRules(inlined(reply.content['application/json']!.schema, doc)),
  ) as JsonSchema;
  const { success: _success, ...properties } = envelope.properties as Record<string, JsonSchema>;
  const required = (envelope.required as string[]).filter((name) => name !== 'success');
  return { type: 'object', properties, required };
}

function descriptionOf(route: ContractRoute): string {
  const paragraphs = (route.description ?? '').split('\n\n').filter((p) => !HTTP_METHODS_PARAGRAPH.test(p));
  const summary = route.summary ?? '';
  return (paragraphs[0] === summary ? paragraphs : [summary, ...paragraphs]).join('\n\n');
}

function toolOf(route: ContractRoute, doc: OpenAPIObject): ToolSpec {
  const name = toolName(route.path);
  const title = route.summary ?? name;
  const effects = endpointEffects(route) ?? UNSTATED;
  return {
    name,
    group: groupOf(route.path),
    title,
    description: descriptionOf(route),
    operation: route.metadata.operation,
    path: route.path,
    inputSchema: inputSchemaOf(route, doc),
    outputSchema: outputSchemaOf(route, doc),
    annotations: {
      title,
      readOnlyHint: effects.readOnly,
      destructiveHint: effects.destructive,
      idempotentHint: effects.idempotent,
      openWorldHint: effects.openWorld,
    },
  };
}

/** Every endpoint of the contract as a tool, in the contract's order. */
export function toolCatalogue(): ToolSpec[] {
  const doc = buildOpenApi();
  return contractEndpoints(contract).map(({ post }) => toolOf(post, doc));
}
