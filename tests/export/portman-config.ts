import type { OpenAPIObject } from '@switchboard/openapi';

type Node = Record<string, unknown>;
/** A schema's forms: `oneOf` per variant (chat/message/send's types), each with `anyOf` of its required sets. */
interface Forms {
  required?: string[];
  anyOf?: Forms[];
  oneOf?: Forms[];
}
/** Every parameter some form of the schema requires, however deep the forms nest. */
const requiredInForms = (forms: Forms): string[] => [
  ...(forms.required ?? []),
  ...[...(forms.anyOf ?? []), ...(forms.oneOf ?? [])].flatMap(requiredInForms),
];
/** A query parameter: a plain value's example, or a JSON-encoded one's (a template's `body`) on its media type. */
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  content?: { 'application/json': { example?: unknown } };
}
/** The slices of an operation read here. */
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': { schema: Forms } } };
  responses: Record<
    string,
    { content?: { 'application/json': { examples?: Record<string, { value: { message: string } }> } } }
  >;
}

/**
 * The definition with every object schema that names its properties closed (`additionalProperties: false`), for
 * the strict schema check of the Portman run; maps (contacts' `customFields`) keep their value schema. Portman's
 * own `schemaValidation.additionalProperties` option cannot be used: it overwrites `additionalProperties` on every
 * `type: object`, maps included, and so refuses every contact that has a custom field. The published definition
 * stays open, so clients keep working when a later version adds a property.
 */
export function withClosedObjects(doc: OpenAPIObject): OpenAPIObject {
  const close = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(close);
    if (typeof node !== 'object' || node === null) return node;
    const closed: Node = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, close(value)]));
    if (closed.type === 'object' && closed.properties && closed.additionalProperties === undefined)
      closed.additionalProperties = false;
    return closed;
  };
  return close(doc) as OpenAPIObject;
}

/**
 * Postman query values: a list as its comma-separated form, which every list parameter of the API accepts; a
 * JSON-encoded parameter as its JSON text.
 */
const queryValue = (parameter: Parameter) => {
  if (parameter.content) return JSON.stringify(parameter.content['application/json'].example);
  return Array.isArray(parameter.example) ? parameter.example.join(',') : String(parameter.example);
};
const hasExample = (parameter: Parameter) =>
  'example' in parameter || parameter.content?.['application/json'].example !== undefined;

/**
 * Portman leaves optional query parameters out, and OpenAPI cannot mark a query parameter required in some
 * cases only. The definition says those cases where it can: the POST body's `anyOf` and `oneOf` (one of several
 * forms, e.g. tickets/manage create or update, chat/message/send per type) and a documented 400 naming the
 * parameter (templates/send `variables` for a template with placeholders). Each GET sends the example's value of
 * exactly those parameters, read from there.
 */
export function conditionalQueryOverwrites(doc: OpenAPIObject) {
  return Object.values(doc.paths).flatMap((item) => {
    const { get, post } = item as { get?: Operation; post?: Operation };
    if (!get || !post) return [];
    const schema = post.requestBody?.content['application/json'].schema;
    const inForms = new Set(schema ? requiredInForms(schema) : []);
    const examples = post.responses['400']?.content?.['application/json'].examples ?? {};
    const named = new Set(Object.values(examples).map((example) => example.value.message.split(':')[0]));
    const needed = (get.parameters ?? []).filter(
      (parameter) =>
        parameter.in === 'query' &&
        !parameter.required &&
        hasExample(parameter) &&
        (inForms.has(parameter.name) || named.has(parameter.name)),
    );
    if (!needed.length) return [];
    // Portman overwrites only a value it generated, and generates none for a JSON-encoded parameter (disabled and
    // empty): each is removed, then inserted with its value.
    const overwriteRequestQueryParams = needed.flatMap((parameter) => [
      { key: parameter.name, remove: true },
      { key: parameter.name, value: queryValue(parameter) },
    ]);
    return [{ openApiOperationId: get.operationId, overwriteRequestQueryParams }];
  });
}
