import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/**
 * One event for one endpoint: the delivery log. `webhookId` is the Standard Webhooks `webhook-id`, stable across
 * retries.
 */
const WebhookDeliverySchema = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  properties: {
    id: uuidPrimaryKey(),
    endpoint: () => p.manyToOne(WebhookEndpoint).deleteRule('cascade'),
    webhookId: p.string().length(64).unique(),
    eventType: p.string().length(100),
    payload: p.json<Record<string, unknown>>(),
    status: p.enum(DELIVERY_STATUSES).default('pending'),
    attempts: p.integer().default(0),
    lastStatusCode: p.integer().nullable(),
    lastError: p.text().nullable(),
    /** While pending: when it is due (a claim moves it to the end of the claim's lease); null once it is final. */
    nextAttemptAt: p.datetime().nullable(),
    deliveredAt: p.datetime().nullable(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  indexes: [
    // The delivery log of an endpoint, newest first (webhooks/deliveries).
    { name: 'webhook_deliveries_endpoint_id_created_at_id_index', properties: ['endpoint', 'createdAt', 'id'] },
    // An endpoint's due deliveries, retries (attempts > 0) apart from first attempts, oldest first (webhook-lanes.ts).
    {
      name: 'webhook_deliveries_due_index',
      expression:
        'create index "webhook_deliveries_due_index" on "webhook_deliveries" ' +
        `("endpoint_id", least("attempts", 1), "next_attempt_at") where "status" = 'pending'`,
    },
  ],
});
export class WebhookDelivery extends WebhookDeliverySchema.class {}
WebhookDeliverySchema.setClass(WebhookDelivery);
