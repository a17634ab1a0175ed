import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';

const RECEIPT_STATUSES = ['pending', 'applied', 'failed'] as const;

/**
 * One signed webhook POST from Meta, stored before it is answered 200 and applied afterwards by a job: the durable
 * record that makes a crash after the 200 lose nothing. `body` holds the exact bytes Meta signed; `bodySha256` makes
 * Meta's redelivery of the same payload one row (a second POST finds it and queues nothing).
 */
const WebhookReceiptSchema = defineEntity({
  name: 'WhatsAppWebhookReceipt',
  // The table keeps the name it was created with; in code, "delivery" is only an outbound webhook's.
  tableName: 'whatsapp_inbound_deliveries',
  properties: {
    id: uuidPrimaryKey(),
    channel: () => p.manyToOne(Channel).deleteRule('cascade'),
    bodySha256: p.string().length(64),
    body: p.blob(),
    status: p.enum(RECEIPT_STATUSES).default('pending'),
    attempts: p.integer().default(0),
    lastError: p.text().nullable(),
    /** Set in the transaction that applied the payload: a job that runs again after a crash finds it and stops. */
    appliedAt: p.datetime().nullable(),
    /** When the POST arrived. */
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  uniques: [
    { name: 'whatsapp_inbound_deliveries_channel_id_body_sha256_unique', properties: ['channel', 'bodySha256'] },
  ],
});
export class WhatsAppWebhookReceipt extends WebhookReceiptSchema.class {}
WebhookReceiptSchema.setClass(WhatsAppWebhookReceipt);
