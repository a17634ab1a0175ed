import { WEBHOOK_EVENTS, WEBHOOK_HEADERS, WEBHOOK_SECRET_OVERLAP_HOURS } from '@switchboard/contract';
import { initContract, type AppRouter } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type {
  OperationObject,
  ParameterObject,
  PathItemObject,
  RequestBodyObject,
  SchemaObject,
  TagObject,
} from 'openapi3-ts';
import { z } from 'zod';

const c = initContract();

export const WEBHOOKS_TAG: TagObject = {
  name: 'webhooks',
  description:
    'Events Switchboard POSTs to your webhook endpoints (webhooks/manage), signed the Standard Webhooks way ' +
    '(https://www.standardwebhooks.com/). Verify each delivery with the endpoint’s secret before acting on it (the ' +
    'SDK: `sb.webhooks.verify(rawBody, headers, secret)`).',
};

/** `message.status.updated` → `messageStatusUpdatedWebhook`. */
const operationIdOf = (type: string) =>
  `${type.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase())}Webhook`;

const HEADER_PARAMETERS: ParameterObject[] = Object.entries(WEBHOOK_HEADERS).map(([name, description]) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
}));

const DELIVERY_RULES = [
  'Every delivery is a POST with a JSON body `{type, timestamp, data}` and the Standard Webhooks headers. A 2xx ' +
    'answer within the timeout acknowledges it; anything else is retried with growing delays (the same `webhook-id` ' +
    'each time) until it succeeds or the retries run out, and the endpoint’s delivery log (webhooks/deliveries) ' +
    'shows every attempt.',
  `After a secret rotation, \`webhook-signature\` carries one signature per secret for ` +
    `${WEBHOOK_SECRET_OVERLAP_HOURS} h: accept the delivery when any one verifies.`,
].join('\n\n');

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event of the contract (WEBHOOK_EVENTS), its body as a named
 * component schema converted by the same zod→OpenAPI path as the API's (ts-rest's generator, run over one route per
 * event), with the event's example. Returns the entries and the component schemas they refer to.
 */
export function webhooksSection(): { webhooks: Record<string, PathItemObject>; schemas: Record<string, SchemaObject> } {
  const routes = Object.fromEntries(
    Object.entries(WEBHOOK_EVENTS).map(([type, event]) => [
      type,
      { method: 'POST', path: `/${type}`, body: event.schema, responses: { 200: z.null() }, summary: event.summary },
    ]),
  );
  const generated = generateOpenApi(c.router(routes as AppRouter), { info: { title: 'webhooks', version: '1' } });
  const webhooks = Object.fromEntries(
    Object.entries(WEBHOOK_EVENTS).map(([type, event]) => {
      const { requestBody } = (generated.paths[`/${type}`] as { post: OperationObject }).post;
      const { schema } = (requestBody as { content: Record<string, { schema: SchemaObject }> }).content[
        'application/json'
      ]!;
      const post: OperationObject = {
        operationId: operationIdOf(type),
        summary: event.summary,
        description: `${event.description}\n\n${DELIVERY_RULES}`,
        tags: [WEBHOOKS_TAG.name],
        parameters: HEADER_PARAMETERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema } },
        },
        responses: {
          '2XX': { description: 'Acknowledged: the delivery is done' },
          '4XX': { description: 'Refused (e.g. a signature that does not verify): retried, then marked failed' },
          '5XX': { description: 'Receiver failure: retried, then marked failed' },
        },
        // A receiver checks the signature, not an API key.
        security: [],
      };
      return [type, { post }];
    }),
  );
  return { webhooks, schemas: (generated.components?.schemas ?? {}) as Record<string, SchemaObject> };
}

/** Each event's example as its body's `example` (on the 3.1 document, like the API's request examples). */
export function withWebhookExamples(webhooks: Record<string, PathItemObject>): void {
  for (const [type, event] of Object.entries(WEBHOOK_EVENTS)) {
    const body = webhooks[type]!.post!.requestBody as RequestBodyObject;
    body.content['application/json']!.example = { type, ...event.example };
  }
}
