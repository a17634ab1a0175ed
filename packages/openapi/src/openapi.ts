import {
  API_INFO,
  API_LICENSE,
  contract,
  contractRoutes,
  paramsObject,
  type ParamsVariants,
  RATE_CLASSES,
  type EndpointMetadata,
} from '@switchboard/contract';
import { upgrade } from '@scalar/openapi-upgrader';
import type { AppRoute } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type { AnyZodObject, ZodTypeAny } from 'zod';
import type {
  InfoObject,
  OpenAPIObject as OpenAPIObject30,
  OperationObject,
  PathItemObject,
  RequestBodyObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
  SecurityRequirementObject,
  ServerObject,
  TagObject,
} from 'openapi3-ts';
import { EVENTS_TAG, eventStreamPath } from './event-stream.js';
import { webhooksSection, withWebhookExamples, WEBHOOKS_TAG } from './webhooks.js';

/**
 * An OpenAPI 3.1 document. The object types are openapi3-ts's (those of @ts-rest/open-api), whose 3.0 schema types
 * do not say that a schema's `type` may be a list (`['string', 'null']`, 3.1's nullable).
 */
export type OpenAPIObject = OpenAPIObject30 & { webhooks: Record<string, PathItemObject> };

export interface OpenApiOptions {
  /** The server root the definition points at; default `http://localhost:3000`. */
  serverUrl?: string;
}

export const DEFAULT_SERVER_URL = 'http://localhost:3000';

/** Both ways of sending the key (docs/api.md "Authentication"); either one satisfies an operation. */
const SECURITY_SCHEMES = {
  ApiKeyAuth: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'Preferred. The API key from the Developer Portal.',
  },
  BearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description: 'Alternative: the same API key as `Authorization: Bearer <API_KEY>`.',
  },
} as const;
const SECURITY: SecurityRequirementObject[] = [{ ApiKeyAuth: [] }, { BearerAuth: [] }];

const ref = (kind: 'schemas' | 'headers', name: string): ReferenceObject => ({ $ref: `#/components/${kind}/${name}` });

/** Response headers. `required` ones are sent on every response of the statuses they are listed for (headersFor). */
const HEADERS = {
  'X-Request-Id': {
    description: 'Identifies this request in the server logs; quote it when reporting a problem.',
    required: true,
    schema: { type: 'string' },
  },
  'RateLimit-Limit': {
    description: 'Requests allowed per window for this operation’s rate class.',
    required: true,
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    required: true,
    schema: { type: 'integer' },
  },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', required: true, schema: { type: 'integer' } },
  'RateLimit-Policy': {
    description: 'The window as `<limit>;w=<seconds>` (IETF RateLimit header fields draft).',
    required: true,
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'integer' } },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored reply of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string' },
  },
} as const;

/** Writes take an optional Idempotency-Key (Stripe's semantics; docs/api.md "Idempotent writes"). */
const WRITE_CLASSES = new Set(['api_write', 'api_message', 'api_admin_write']);
const PARAMETERS: Record<string, ParameterObject> = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes this write safe to retry: the first reply is stored for 24 h per API user and key and replayed (with ' +
      '`Idempotent-Replayed: true`) to a retry with the same parameters; the same key with other parameters is 422 ' +
      '`idempotency_key_reused`, a retry while the first still runs 409 `idempotency_key_in_progress`. Use a fresh ' +
      'random value (e.g. a UUID) per logical write.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
  },
};
type HeaderName = keyof typeof HEADERS;

const RATE_LIMIT_HEADERS: HeaderName[] = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
];
/**
 * Statuses only given once the rate limiter has counted the request, so they always carry its headers: the limiter's
 * own 429, the Idempotency-Key's 409 and 422 (checked right after it) and the handlers' replies. 400, 401, 403, 500
 * and 503 can also come before it (malformed JSON, an unknown key, a missing permission, the database down while
 * the key is looked up).
 */
const AFTER_RATE_LIMITER = new Set(['200', '404', '409', '422', '429', '502']);
/** Every 429 and 503 says when to try again. */
const RETRY_AFTER = new Set(['429', '503']);

function headersFor(status: string): Record<string, ReferenceObject> {
  const headers: Record<string, ReferenceObject> = { 'X-Request-Id': ref('headers', 'X-Request-Id') };
  if (AFTER_RATE_LIMITER.has(status)) for (const name of RATE_LIMIT_HEADERS) headers[name] = ref('headers', name);
  if (RETRY_AFTER.has(status)) headers['Retry-After'] = ref('headers', 'Retry-After');
  return headers;
}

/** `workspace.chat.templates.send` → `workspaceChatTemplatesSend`. */
const camel = (dotted: string) => dotted.replace(/[.-](\w)/g, (_, letter: string) => letter.toUpperCase());

/**
 * The resource an operation belongs to (`workspace.chat.templates.send` → `workspace.chat.templates`): its tag and
 * Postman folder.
 */
const tagOf = (operation: string) => operation.split('.').slice(0, -1).join('.');

/**
 * Fills in what ts-rest cannot know from the zod schemas alone, all read from the route's contract metadata:
 * operationId, tag, security, rate class and response headers (the request examples come after the 3.1 upgrade).
 */
function describeOperation(operation: OperationObject, route: AppRoute): OperationObject {
  const metadata = route.metadata as EndpointMetadata;
  const params = (route.method === 'GET' ? route.query : 'body' in route ? route.body : undefined) as
    ZodTypeAny | undefined;
  const write = WRITE_CLASSES.has(metadata.rateClass);
  const responses = Object.fromEntries(
    Object.entries(operation.responses as Record<string, ResponseObject>).map(([status, response]) => {
      const media = response.content?.['application/json'];
      const success = status.startsWith('2');
      const replayed = success && write ? { 'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed') } : {};
      return [
        status,
        {
          ...response,
          description: success ? 'Success envelope' : response.description,
          headers: { ...headersFor(status), ...replayed },
          content: { 'application/json': { ...media, ...failureExamples(metadata, status) } },
        },
      ];
    }),
  );
  const { points, durationSeconds } = RATE_CLASSES[metadata.rateClass];
  const described: OperationObject = {
    ...operation,
    operationId: camel(metadata.operation) + (route.method === 'GET' ? 'Get' : ''),
    tags: [tagOf(metadata.operation)],
    security: SECURITY,
    'x-rate-limit-class': metadata.rateClass,
    'x-rate-limit': { requests: points, windowSeconds: durationSeconds },
    responses,
  };
  if (route.method === 'GET') {
    const sets = requiredSets(params);
    described.parameters = (operation.parameters as ParameterObject[]).map((parameter) =>
      jsonEncodedIfObject(withRequiredSets(parameter, sets)),
    );
  } else if (operation.requestBody && 'content' in operation.requestBody) {
    described.requestBody = { description: 'Parameters as JSON', content: operation.requestBody.content };
  }
  if (write)
    described.parameters = [
      ...((described.parameters ?? operation.parameters ?? []) as ParameterObject[]),
      { $ref: '#/components/parameters/IdempotencyKey' },
    ];
  return described;
}

/**
 * An object, one of several objects told apart by a field (chat/message/send `interactive`), or a list of objects
 * (automations/manage `actions`): what the query string carries as JSON text.
 */
function isJsonEncoded(schema: SchemaObject | undefined): boolean {
  if (schema?.type === 'object' || schema?.discriminator !== undefined) return true;
  const items = schema?.type === 'array' ? (schema.items as SchemaObject | undefined) : undefined;
  return items !== undefined && (items.type === 'object' || items.oneOf !== undefined);
}

/**
 * An object parameter (contacts/manage `customFields`) travels in the query string as JSON text
 * (`customFields={"Age":36}`), as does a list of objects (`actions=[{"type":"add_label",…}]`), which OpenAPI says
 * with `content` instead of `schema` (whose default style would spread its keys over the query string).
 */
function jsonEncodedIfObject(parameter: ParameterObject): ParameterObject {
  const schema = parameter.schema as SchemaObject | undefined;
  if (!isJsonEncoded(schema)) return parameter;
  const { schema: _schema, ...rest } = parameter;
  return { ...rest, content: { 'application/json': { schema: namedAsRefs(schema!) } } };
}

/** A body's properties with their named parts as references (see namedAsRefs); the body itself stays inline. */
function withNamedProperties(schema: SchemaObject): SchemaObject {
  if (!schema.properties) return schema;
  const properties = Object.entries(schema.properties).map(([name, property]) => [
    name,
    namedAsRefs(property as SchemaObject),
  ]);
  return { ...schema, properties: Object.fromEntries(properties) };
}

/**
 * A schema with its named parts (the replies' components) as references: the generator inlines them in request
 * bodies and parameters, where a discriminator cannot select an inline `oneOf` member.
 */
function namedAsRefs(schema: SchemaObject): SchemaObject | ReferenceObject {
  if (schema.title) return ref('schemas', schema.title);
  const out: SchemaObject = { ...schema };
  if (schema.items) out.items = namedAsRefs(schema.items as SchemaObject);
  if (schema.oneOf) out.oneOf = schema.oneOf.map((member) => namedAsRefs(member as SchemaObject));
  // A discriminator selects only referenced members: over inline ones (a request-only union) it says nothing.
  if (out.oneOf?.some((member) => !('$ref' in member))) delete out.discriminator;
  return out;
}

/** The contract's examples of failures with this status, as OpenAPI `examples`. */
function failureExamples(
  metadata: EndpointMetadata,
  status: string,
): { examples?: Record<string, { summary: string; value: unknown }> } {
  const shown = Object.entries(metadata.failureExamples).filter(([, failure]) => String(failure.status) === status);
  if (!shown.length) return {};
  const value = ({ error, message }: { error: string; message: string }) => ({ success: false, error, message });
  return {
    examples: Object.fromEntries(
      shown.map(([name, failure]) => [name, { summary: failure.summary, value: value(failure) }]),
    ),
  };
}

interface RequiredSet {
  fields: string[];
  /** Every field of the set is a deprecated alias (addon/manage `planId`): not a form to document as needed. */
  deprecated: boolean;
}

/**
 * Each variant's required fields (automations/manage: one form per `action`), its discriminator first if needed;
 * then the deprecated forms without it (webhooks/manage before `action`).
 */
function variantSets(object: ZodTypeAny | undefined): { required: string[]; deprecated?: boolean }[] {
  const { variants } = (object as { metaOpenApi?: { variants?: ParamsVariants } } | undefined)?.metaOpenApi ?? {};
  if (!variants) return [];
  const shape = (object as AnyZodObject).shape as Record<string, ZodTypeAny>;
  const picked = shape[variants.discriminator]?.isOptional() ? [] : [variants.discriminator];
  // Actions that need the same fields (broadcasts/manage's cancel, pause and resume) are one form here.
  const sets = new Set(
    Object.values(variants.forms).flatMap((form) =>
      (form.anyOf ?? [{ required: [] }]).map((set) => [...picked, ...form.required, ...set.required].join(' ')),
    ),
  );
  const deprecated = (variants.deprecatedForms ?? []).map((form) => ({ required: form.required, deprecated: true }));
  return [...[...sets].map((set) => ({ required: set.split(' ') })), ...deprecated];
}

/**
 * The field sets of which one is required (tickets/manage: create or update), from the contract's field rules or
 * else its variants (templates/manage: one per `action`).
 */
function requiredSets(params: ZodTypeAny | undefined): RequiredSet[] {
  const ruled = (params as { metaOpenApi?: { anyOf?: { required: string[] }[] } } | undefined)?.metaOpenApi?.anyOf;
  // Rules beside variants (chat/message/send's recipient) are the sets; variants alone make their own.
  const anyOf = ruled ?? variantSets(params && paramsObject(params));
  const shape = params ? (paramsObject(params)?.shape ?? {}) : {};
  const isDeprecated = (field: string) =>
    Boolean((shape[field] as { metaOpenApi?: { deprecated?: boolean } } | undefined)?.metaOpenApi?.deprecated);
  return anyOf.map(({ required, ...set }) => ({
    fields: required,
    deprecated: ('deprecated' in set && set.deprecated === true) || required.every(isDeprecated),
  }));
}

/** `email` + `title` + `description` or `ticketId`; `url` + `events`, `endpointId`, or `redeliver` */
const formsText = (forms: readonly RequiredSet[]) => {
  const texts = forms.map((set) => set.fields.map((field) => `\`${field}\``).join(' + '));
  return texts.length > 2 ? `${texts.slice(0, -1).join(', ')}, or ${texts.at(-1)}` : texts.join(' or ');
};

/**
 * A query parameter cannot say "one of these sets is required" (the POST body's `anyOf`). A field every current
 * form needs is `required` (addon/manage `addonId`: its other form is a deprecated alias); a field of one form among
 * several stays optional and its description names the forms (tickets/manage: create or update). A deprecated
 * field is marked so on the parameter itself, where generators look.
 */
function withRequiredSets(parameter: ParameterObject, sets: readonly RequiredSet[]): ParameterObject {
  const deprecated = (parameter.schema as SchemaObject | undefined)?.deprecated ? { deprecated: true } : {};
  const forms = sets.filter((set) => !set.deprecated);
  const inForm = forms.filter((set) => set.fields.includes(parameter.name));
  if (!inForm.length) return { ...parameter, ...deprecated };
  if (inForm.length === forms.length) return { ...parameter, ...deprecated, required: true };
  const rule = `Needed in one of these forms: ${formsText(forms)}.`;
  const description = parameter.description ? `${parameter.description.replace(/\.?$/, '.')} ${rule}` : rule;
  return { ...parameter, ...deprecated, description };
}

/** Whether a POST body schema demands anything: then `requestBody.required`, so tools never send an empty body. */
function demandsFields(schema: SchemaObject): boolean {
  return Boolean(schema.required?.length || schema.anyOf || schema.oneOf);
}

/**
 * The contract states "one of these field sets is required" as `anyOf` of bare `required` lists; generators (e.g.
 * openapi-typescript) read bare lists as `unknown`, so each alternative becomes the whole shape with its set required:
 * tickets/manage is a union of a create shape and an update shape.
 */
function expandRequiredSets(schema: SchemaObject): SchemaObject {
  const sets = schema.anyOf as { required: string[] }[] | undefined;
  if (!sets) return schema;
  const { anyOf: _anyOf, description, ...shape } = schema;
  const alternatives = sets.map(({ required }) => ({
    ...shape,
    required: [...new Set([...(shape.required ?? []), ...required])],
  }));
  return { ...(description && { description }), anyOf: alternatives };
}

/**
 * The contract's `variants` (automations/manage: one form per `action`) as `oneOf` whole shapes, each with only its
 * form's fields and the discriminating field narrowed to its one value: what generators turn into a discriminated
 * union, as the SDK's types are. No `discriminator` object: it may only select `$ref`s, and these shapes are inline.
 * A field whose default is one form's value (a message's `type`, `text`) stays optional in that form alone.
 */
function expandVariants(schema: SchemaObject): SchemaObject {
  const { variants, description, ...shape } = schema as SchemaObject & { variants?: ParamsVariants };
  if (!variants) return schema;
  const { discriminator } = variants;
  const properties = (shape.properties ?? {}) as Record<string, SchemaObject>;
  const allForms = [...Object.values(variants.forms), ...(variants.deprecatedForms ?? [])];
  const inForms = new Set(allForms.flatMap((form) => [...form.required, ...form.optional]));
  const shared = Object.keys(properties).filter((name) => name !== discriminator && !inForms.has(name));
  const { default: byDefault, ...field } = properties[discriminator] ?? {};
  const oneOf = Object.entries(variants.forms).map(([value, form]) => ({
    ...shape,
    properties: Object.fromEntries([
      [discriminator, { ...field, enum: [value], ...(byDefault === value && { default: value }) }],
      ...[...shared, ...form.required, ...form.optional].map((name) => [name, properties[name]]),
    ]),
    required: [
      ...(byDefault === value ? [] : [discriminator]),
      ...form.required,
      ...(shape.required ?? []).filter((name) => shared.includes(name)),
    ],
    // The sets its field rules need one of (notes/manage's create: contactId or phone), each naming its fields.
    ...(form.anyOf && {
      anyOf: form.anyOf.map((set) => ({
        properties: Object.fromEntries(set.required.map((name) => [name, properties[name]!])),
        required: set.required,
      })),
    }),
  }));
  // Still accepted, no longer to be used: each a whole shape without the discriminator, closed (it takes no new
  // field), so that no request of a current form matches one.
  const deprecated = (variants.deprecatedForms ?? []).map((form): SchemaObject => ({
    ...shape,
    deprecated: true,
    additionalProperties: false,
    properties: Object.fromEntries(
      [...shared, ...form.required, ...form.optional].map((name) => [name, properties[name]!]),
    ),
    required: [...form.required, ...(shape.required ?? []).filter((name) => shared.includes(name))],
  }));
  return { ...(description && { description }), oneOf: [...oneOf, ...deprecated] };
}

/** POST bodies: required sets as whole shapes, and `requestBody.required` wherever the schema requires a field. */
function finishBodies(paths: OpenAPIObject['paths']) {
  for (const item of Object.values(paths) as Record<string, OperationObject>[]) {
    const body = item.post?.requestBody as RequestBodyObject | undefined; // ts-rest writes bodies inline, never as $ref
    const media = body?.content['application/json'];
    if (!body || !media?.schema) continue;
    media.schema = expandRequiredSets(expandVariants(withNamedProperties(media.schema as SchemaObject)));
    if (demandsFields(media.schema as SchemaObject)) body.required = true;
  }
}

/**
 * zod's `z.null()` in a union comes out as a `{type: 'string', format: 'null', nullable: true}` alternative next
 * to a `nullable` without `type`, which OpenAPI 3.0 does not allow: make the first real alternative nullable instead.
 * A nullable enum lists null among its values, as OpenAPI 3.0.3 asks (else null fails the enum once upgraded).
 */
function foldNullAlternatives(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(foldNullAlternatives);
  if (typeof node !== 'object' || node === null) return node;
  const schema: SchemaObject = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, foldNullAlternatives(value)]),
  );
  const isNull = (alternative: SchemaObject) => alternative.format === 'null';
  for (const key of ['oneOf', 'anyOf'] as const) {
    const alternatives = schema[key] as SchemaObject[] | undefined;
    if (!alternatives?.some(isNull)) continue;
    const [first, ...rest] = alternatives.filter((alternative) => !isNull(alternative));
    const { nullable: _nullable, ...parent } = schema;
    return { ...parent, [key]: [{ ...first, nullable: true }, ...rest] };
  }
  if (schema.nullable && Array.isArray(schema.enum) && !schema.enum.includes(null))
    return { ...schema, enum: [...(schema.enum as unknown[]), null] };
  return schema;
}

function tagsOf(doc: OpenAPIObject30): TagObject[] {
  const names = new Set(
    Object.values(doc.paths).flatMap((item) =>
      Object.values(item as Record<string, OperationObject>).flatMap((op) => op.tags ?? []),
    ),
  );
  return [...names].map((name) => {
    const api = name.startsWith('platform.') ? 'Platform' : 'Workspace';
    return { name, description: `${api} API: ${name.split('.').slice(1).join(' ')}` };
  });
}

/**
 * The deployment as a server variable: tools offer to change it (Swagger UI, Postman's baseUrl), and the default
 * export's `http://localhost:3000` reads as the placeholder it is rather than as the API's address.
 */
function serversFor(serverUrl: string): ServerObject[] {
  return [
    {
      url: '{baseUrl}',
      description: 'Switchboard deployment (server root)',
      variables: {
        baseUrl: {
          default: serverUrl,
          description: 'Root URL of your Switchboard deployment, without /api/… (set at export with --server)',
        },
      },
    },
  ];
}

/** The server root a definition points at: its `baseUrl` variable's value. */
export function serverRootOf(doc: Pick<OpenAPIObject30, 'servers'>): string {
  const [server] = doc.servers ?? [];
  return server?.variables?.baseUrl?.default.toString() ?? server?.url ?? DEFAULT_SERVER_URL;
}

/** Who publishes the API and under what terms: the deployment's Developer Portal. */
function infoFor(serverUrl: string): InfoObject {
  const portal = `${serverUrl.replace(/\/+$/, '')}/developer`;
  return {
    ...API_INFO,
    contact: { name: 'Switchboard Developer Portal', url: portal },
    license: { name: API_LICENSE, url: portal },
  };
}

/**
 * The contract's request examples as `example` of each GET parameter and POST body, set on the 3.1 document: the
 * upgrader would turn a 3.0 `example` there into an `examples` map, while `example` is still valid 3.1 for
 * parameters and bodies and is what Postman's converter, Portman and this package's Postman export read.
 */
function withRequestExamples(doc: OpenAPIObject): OpenAPIObject {
  for (const route of contractRoutes(contract)) {
    const operation = (doc.paths[route.path] as Record<string, OperationObject>)[route.method.toLowerCase()]!;
    const { example, moreExamples } = route.metadata;
    if (route.method === 'POST') {
      const media = (operation.requestBody as RequestBodyObject).content['application/json']!;
      media.example = example;
      if (moreExamples) withFormExamples(media.schema as SchemaObject, Object.values(moreExamples));
    } else
      for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
        if (!(parameter.name in example)) continue;
        // A JSON-encoded parameter (see jsonEncodedIfObject) carries its example on its media type, as OpenAPI wants.
        const media = parameter.content?.['application/json'];
        if (media) media.example = example[parameter.name];
        else parameter.example = example[parameter.name];
      }
  }
  return doc;
}

/**
 * An endpoint's further examples (chat/message/send's buttons, list, reaction…) as JSON Schema `examples` of the
 * `oneOf` form each one takes (the one whose single-valued field it matches), so a reader sees one per form; a body
 * without forms takes them all. The body's own `example` stays the one request Postman's converter sends.
 */
function withFormExamples(schema: SchemaObject, more: readonly { value: Record<string, unknown> }[]) {
  const forms = (schema.oneOf ?? []) as SchemaObject[];
  for (const { value } of more) {
    const form = forms.find((alternative) =>
      Object.entries(alternative.properties ?? {}).some(([name, property]) => {
        const values = (property as SchemaObject).enum;
        return values?.length === 1 && values[0] === value[name];
      }),
    );
    const target = (form ?? schema) as SchemaObject & { examples?: unknown[] };
    target.examples = [...(target.examples ?? []), value];
  }
}

/** GET events/stream (outside ts-rest's contract), with the response headers every operation documents. */
function withEventStream(doc: OpenAPIObject): OpenAPIObject {
  const stream = eventStreamPath();
  for (const item of Object.values(stream))
    for (const [status, response] of Object.entries(item.get!.responses as Record<string, ResponseObject>))
      response.headers = headersFor(status);
  return { ...doc, paths: { ...doc.paths, ...stream }, tags: [...(doc.tags ?? []), EVENTS_TAG] };
}

/** The API's component schemas and the events', one set: a name given twice must mean the same schema. */
function mergeSchemas(...sets: Record<string, SchemaObject>[]): Record<string, SchemaObject> {
  const merged: Record<string, SchemaObject> = {};
  for (const [name, schema] of sets.flatMap((set) => Object.entries(set))) {
    if (name in merged && JSON.stringify(merged[name]) !== JSON.stringify(schema))
      throw new Error(`Component schema ${name} is defined twice, differently`);
    merged[name] = schema;
  }
  return merged;
}

/**
 * The OpenAPI 3.1 definition of the whole API, generated from the contract: every endpoint as POST (JSON body)
 * and GET (query string), both security schemes on every operation, every failure status with its error codes,
 * a named component schema for every resource, parameter set and envelope, and the `webhooks` section with every
 * event's body. @ts-rest/open-api writes OpenAPI 3.0.2, which has no `webhooks`: its output is upgraded to 3.1 by
 * Scalar's @scalar/openapi-upgrader (the maintained converter of the API reference the portal serves), which turns
 * `nullable` into 3.1's type lists, rather than by rules of our own.
 */
export function buildOpenApi(options: OpenApiOptions = {}): OpenAPIObject {
  const serverUrl = options.serverUrl ?? DEFAULT_SERVER_URL;
  const doc = generateOpenApi(
    contract,
    {
      info: infoFor(serverUrl),
      servers: serversFor(serverUrl),
      security: SECURITY,
    },
    { operationMapper: describeOperation },
  );
  const events = webhooksSection();
  const schemas = foldNullAlternatives(mergeSchemas(doc.components?.schemas ?? {}, events.schemas)) as Record<
    string,
    SchemaObject
  >;
  const paths = foldNullAlternatives(doc.paths) as OpenAPIObject['paths'];
  finishBodies(paths);
  const document = {
    ...doc,
    paths,
    webhooks: events.webhooks,
    tags: [...tagsOf(doc), WEBHOOKS_TAG],
    components: { schemas, parameters: PARAMETERS, headers: HEADERS, securitySchemes: SECURITY_SCHEMES },
  };
  const upgraded = upgrade(document, '3.1') as unknown as OpenAPIObject;
  withWebhookExamples(upgraded.webhooks);
  return withEventStream(withRequestExamples(upgraded));
}
