import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';

/** One POST of a delivery: what the receiver answered (or why nothing came back) and how long it took. */
const WebhookAttemptSchema = defineEntity({
  name: 'WebhookAttempt',
  tableName: 'webhook_attempts',
  properties: {
    id: uuidPrimaryKey(),
    delivery: () => p.manyToOne(WebhookDelivery).deleteRule('cascade'),
    /** 1 for the first POST of the delivery, 2 for the first retry, … */
    attempt: p.integer(),
    statusCode: p.integer().nullable(),
    error: p.text().nullable(),
    durationMs: p.integer(),
    createdAt: createdAtColumn(),
  },
  uniques: [{ properties: ['delivery', 'attempt'] }],
});
export class WebhookAttempt extends WebhookAttemptSchema.class {}
WebhookAttemptSchema.setClass(WebhookAttempt);
