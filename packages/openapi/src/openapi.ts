import { API_INFO, contract, RATE_CLASSES, type EndpointMetadata } from '@switchboard/contract';
import type { AppRoute } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type { OpenAPIObject, OperationObject, ParameterObject, ReferenceObject, ResponseObject, SchemaObject, SecurityRequirementObject, TagObject } from 'openapi3-ts';

export type { OpenAPIObject } from 'openapi3-ts';

export interface OpenApiOptions {
  /** The server root the definition points at; default `http://localhost:3000`. */
  serverUrl?: string;
}

export const DEFAULT_SERVER_URL = 'http://localhost:3000';

/** Both ways of sending the key (SPEC part 5); either one satisfies an operation. */
const SECURITY_SCHEMES = {
  ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Preferred. The API key from the Developer Portal.' },
  BearerAuth: { type: 'http', scheme: 'bearer', description: 'Alternative: the same API key as `Authorization: Bearer <API_KEY>`.' },
} as const;
const SECURITY: SecurityRequirementObject[] = [{ ApiKeyAuth: [] }, { BearerAuth: [] }];

const ref = (kind: 'schemas' | 'headers', name: string): ReferenceObject => ({ $ref: `#/components/${kind}/${name}` });

const HEADERS = {
  'X-Request-Id': { description: 'Identifies this request in the server logs; quote it when reporting a problem.', schema: { type: 'string' } },
  'RateLimit-Limit': { description: 'Requests allowed per window for this operation’s rate class.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
} as const;
type HeaderName = keyof typeof HEADERS;

const headersFor = (status: string): Record<string, ReferenceObject> => {
  const names: HeaderName[] = ['X-Request-Id'];
  if (status === '200' || status === '429') names.push('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');
  if (status === '429') names.push('Retry-After');
  return Object.fromEntries(names.map((name) => [name, ref('headers', name)]));
};

/** `workspace.chat.templates.send` → `workspaceChatTemplatesSend`. */
const camel = (dotted: string) => dotted.replace(/[.-](\w)/g, (_, letter: string) => letter.toUpperCase());

/** The resource an operation belongs to (`workspace.chat.templates.send` → `workspace.chat.templates`): its tag and Postman folder. */
const tagOf = (operation: string) => operation.split('.').slice(0, -1).join('.');

/**
 * Fills in what ts-rest cannot know from the zod schemas alone, all read from the route's contract metadata:
 * operationId, tag, security, rate class, request examples, response headers, and the shared failure schema.
 */
function describeOperation(operation: OperationObject, route: AppRoute, errorSchemas: SchemaObject[]): OperationObject {
  const metadata = route.metadata as EndpointMetadata;
  const example = metadata.example;
  const responses = Object.fromEntries(
    Object.entries(operation.responses as Record<string, ResponseObject>).map(([status, response]) => {
      const media = response.content?.['application/json'];
      const success = status.startsWith('2');
      // Every failure has the one envelope: collect its schema once and point at it.
      if (!success && media?.schema) errorSchemas.push(media.schema as SchemaObject);
      return [
        status,
        {
          ...response,
          description: success ? 'Success envelope' : response.description,
          headers: headersFor(status),
          content: { 'application/json': success ? media : { schema: ref('schemas', 'ErrorEnvelope') } },
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
    described.parameters = (operation.parameters as ParameterObject[]).map((parameter) =>
      parameter.name in example ? { ...parameter, example: example[parameter.name] } : parameter,
    );
  } else if (operation.requestBody && 'content' in operation.requestBody) {
    const media = operation.requestBody.content['application/json']!;
    described.requestBody = { description: 'Parameters as JSON', content: { 'application/json': { ...media, example } } };
  }
  return described;
}

/** The failure envelope's schema, the same for every status apart from the description the response carries. */
function errorEnvelopeSchema(collected: SchemaObject[]): SchemaObject {
  const [first, ...rest] = collected.map(({ description: _description, ...schema }) => schema);
  if (!first || rest.some((schema) => JSON.stringify(schema) !== JSON.stringify(first))) {
    throw new Error('The contract’s failure responses no longer share one schema');
  }
  return { ...first, description: 'Failure envelope: `{success: false, error, message}`' };
}

/**
 * zod's `z.null()` in a union comes out as a `{type: 'string', format: 'null', nullable: true}` alternative next
 * to a `nullable` without `type`, which OpenAPI 3.0 does not allow: make the first real alternative nullable instead.
 */
function foldNullAlternatives(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(foldNullAlternatives);
  if (typeof node !== 'object' || node === null) return node;
  const schema: SchemaObject = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, foldNullAlternatives(value)]));
  const isNull = (alternative: SchemaObject) => alternative.format === 'null';
  for (const key of ['oneOf', 'anyOf'] as const) {
    const alternatives = schema[key] as SchemaObject[] | undefined;
    if (!alternatives?.some(isNull)) continue;
    const [first, ...rest] = alternatives.filter((alternative) => !isNull(alternative));
    const { nullable: _nullable, ...parent } = schema;
    return { ...parent, [key]: [{ ...first, nullable: true }, ...rest] };
  }
  return schema;
}

function tagsOf(doc: OpenAPIObject): TagObject[] {
  const names = new Set(Object.values(doc.paths).flatMap((item) => Object.values(item as Record<string, OperationObject>).flatMap((op) => op.tags ?? [])));
  return [...names].map((name) => ({
    name,
    description: `${name.startsWith('platform.') ? 'Platform' : 'Workspace'} API: ${name.split('.').slice(1).join(' ')}`,
  }));
}

/**
 * The OpenAPI 3.0 definition of the whole API, generated from the contract: every endpoint as POST (JSON body)
 * and GET (query string), both security schemes on every operation, every failure status with the envelope.
 */
export function buildOpenApi(options: OpenApiOptions = {}): OpenAPIObject {
  const errorSchemas: SchemaObject[] = [];
  const doc = generateOpenApi(
    contract,
    {
      info: { ...API_INFO },
      servers: [{ url: options.serverUrl ?? DEFAULT_SERVER_URL, description: 'Switchboard deployment (server root)' }],
      security: SECURITY,
    },
    { operationMapper: (operation, route) => describeOperation(operation, route, errorSchemas) },
  );
  return {
    ...doc,
    paths: foldNullAlternatives(doc.paths) as OpenAPIObject['paths'],
    tags: tagsOf(doc),
    components: {
      ...doc.components,
      schemas: { ...doc.components?.schemas, ErrorEnvelope: errorEnvelopeSchema(errorSchemas) },
      headers: HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
