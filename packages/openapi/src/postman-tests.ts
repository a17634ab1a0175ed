import type { OperationObject, ReferenceObject, ResponseObject, SchemaObject } from 'openapi3-ts';
import type { OpenAPIObject } from './openapi.js';
import type { PostmanEvent } from './postman.js';
import { TEMPLATE_PICK } from './postman-setup.js';

type Node = SchemaObject | ReferenceObject;

/**
 * An OpenAPI 3.1 schema (JSON Schema already, `null` in its type lists) as a self-contained JSON Schema for
 * Postman's `jsonSchema` assertion: references inlined, and annotations the assertion has no use for (`examples`,
 * `deprecated`, formats, titles, descriptions) dropped.
 */
function toJsonSchema(node: Node, doc: OpenAPIObject): Record<string, unknown> {
  if ('$ref' in node) return toJsonSchema(doc.components!.schemas![node.$ref.split('/').pop()!] as Node, doc);
  const {
    examples: _examples,
    deprecated: _deprecated,
    format: _format,
    title: _title,
    description: _description,
    ...schema
  } = node as SchemaObject & { examples?: unknown };
  const out: Record<string, unknown> = { ...schema };
  if (schema.properties)
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [key, toJsonSchema(value, doc)]),
    );
  if (schema.items) out.items = toJsonSchema(schema.items, doc);
  if (typeof schema.additionalProperties === 'object')
    out.additionalProperties = toJsonSchema(schema.additionalProperties, doc);
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const)
    if (schema[key]) out[key] = schema[key]!.map((each) => toJsonSchema(each, doc));
  return out;
}

interface Fill {
  variable: string;
  from: string;
  /** Set even when the variable has a value: the record the request itself just made (the message it played). */
  always?: boolean;
}

/**
 * Requests whose reply fills an empty variable, so a new user needs only baseUrl and apiKey to start: the requests
 * after them use what these found or made (the collection runs in order, makers first).
 */
const FILLS: Record<string, Fill> = {
  workspaceChannelsList: { variable: 'channelId', from: 'reply.data[0] && reply.data[0].id' },
  platformIdList: { variable: 'platformId', from: 'reply.data.id' },
  platformTicketsList: { variable: 'ticketId', from: 'reply.data[0] && reply.data[0].id' },
  platformTicketsManage: { variable: 'ticketId', from: 'reply.data.id' },
  workspaceAutomationsList: { variable: 'automationId', from: 'reply.data[0] && reply.data[0].id' },
  platformWebhooksManage: { variable: 'webhookEndpointId', from: 'reply.data.id' },
  workspaceSandboxReceive: { variable: 'customerMsgid', from: 'reply.data.msgid', always: true },
  workspaceChatTemplatesList: { variable: 'templateName', from: TEMPLATE_PICK },
  workspaceChatTemplatesSend: { variable: 'sentMsgid', from: 'reply.data.msgid', always: true },
};

/**
 * The test script of one request of the endpoint `endpointId` (its POST route's operationId): status 200,
 * `success: true`, and the reply matches the operation's 200 schema; then the variable it fills, if any.
 */
export function replyTests(operation: OperationObject, doc: OpenAPIObject, endpointId: string): PostmanEvent {
  const media = (operation.responses['200'] as ResponseObject).content!['application/json']!;
  const schema = toJsonSchema(media.schema as Node, doc);
  const fill = FILLS[endpointId];
  const exec = [
    "pm.test('status is 200', () => pm.response.to.have.status(200));",
    'const reply = pm.response.json();',
    "pm.test('success is true', () => pm.expect(reply.success).to.eql(true));",
    `pm.test('reply matches its schema', () => pm.response.to.have.jsonSchema(${JSON.stringify(schema)}));`,
    ...(fill
      ? [
          `if (${fill.always ? '' : `!pm.variables.get('${fill.variable}') && `}reply.data) {`,
          `  (pm.environment.has('${fill.variable}') ? pm.environment : ` +
            `pm.collectionVariables).set('${fill.variable}', ${fill.from});`,
          '}',
        ]
      : []),
  ];
  return { listen: 'test', script: { type: 'text/javascript', exec } };
}
