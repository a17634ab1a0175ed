import { WEBHOOK_EVENTS, WEBHOOK_HEADERS, webhookEventName } from '@switchboard/contract';
import { buildOpenApi, type OpenAPIObject } from '@switchboard/openapi';
import { beforeAll, describe, expect, it } from 'vitest';

type WebhookOperation = {
  operationId: string;
  tags: string[];
  security: unknown[];
  parameters: { name: string; in: string; required: boolean }[];
  requestBody: { required: boolean; content: { 'application/json': { schema: { $ref: string }; example: unknown } } };
  responses: Record<string, unknown>;
};
type Schema = {
  properties: Record<string, { enum?: string[]; $ref?: string; properties?: object }>;
  required: string[];
};

describe('the OpenAPI 3.1 webhooks section', () => {
  let doc: OpenAPIObject;
  const operationOf = (type: string) => doc.webhooks[type]!.post as unknown as WebhookOperation;
  const component = (ref: string) => doc.components!.schemas![ref.split('/').pop()!] as unknown as Schema;

  beforeAll(() => {
    doc = buildOpenApi();
  });

  it('has one entry per event of the contract, each with the Standard Webhooks headers and no API key', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d$/);
    expect(Object.keys(doc.webhooks)).toEqual(Object.keys(WEBHOOK_EVENTS));
    expect(doc.tags?.map((tag) => tag.name)).toContain('webhooks');
    for (const type of Object.keys(WEBHOOK_EVENTS)) {
      const operation = operationOf(type);
      expect(operation.tags).toEqual(['webhooks']);
      expect(operation.security).toEqual([]);
      expect(operation.parameters.map(({ name, in: where, required }) => [name, where, required])).toEqual(
        Object.keys(WEBHOOK_HEADERS).map((name) => [name, 'header', true]),
      );
      expect(Object.keys(operation.responses)).toEqual(['2XX', '4XX', '5XX']);
    }
    expect(operationOf('message.status.updated').operationId).toBe('messageStatusUpdatedWebhook');
  });

  it('describes each body as a named component narrowed to its type, with an example its schema accepts', () => {
    for (const [type, event] of Object.entries(WEBHOOK_EVENTS)) {
      const { schema, example } = operationOf(type).requestBody.content['application/json'];
      expect(schema).toEqual({ $ref: `#/components/schemas/${webhookEventName(type)}` });
      const body = component(schema.$ref);
      expect(body.required).toEqual(['type', 'timestamp', 'data']);
      expect(body.properties.type!.enum).toEqual([type]);
      expect(example).toEqual({ type, ...event.example });
      expect(event.schema.safeParse(example).success, type).toBe(true);
    }
    // The API's own components are referred to, not copied: the closed ticket is a Ticket.
    const closed = component(operationOf('ticket.closed').requestBody.content['application/json'].schema.$ref);
    expect(closed.properties.data!.properties).toEqual({ ticket: { $ref: '#/components/schemas/Ticket' } });
  });

  it('writes 3.1 schemas: nullable as a type list, never the 3.0 `nullable` keyword', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"nullable"');
    const media = component('#/components/schemas/MessageReceivedEvent').properties.data as unknown as Schema;
    expect(media.properties.text).toEqual({ type: ['string', 'null'] });
    expect(media.properties.media).toEqual({
      anyOf: [{ $ref: '#/components/schemas/MessageReceivedMedia' }, { type: 'null' }],
    });
  });
});
