import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';

const INBOUND_DELIVERY_STATUSES = ['pending', 'applied', 'failed'] as const;

/**
 * One signed webhook POST from Meta, stored before it is answered 200 and applied afterwards by a job: the durable
 * record that makes a crash after the 200 lose nothing. `body` holds the exact bytes Meta signed; `bodySha256` makes
 * Meta's redelivery of the same payload one row (a second POST finds it and queues nothing).
 */
const InboundDeliverySchema = defineEntity({
  name: 'WhatsAppInboundDelivery',
  tableName: 'whatsapp_inbound_deliveries',
  properties: {
    id: uuidPrimaryKey(),
    channel: () => p.manyToOne(Channel).deleteRule('cascade'),
    bodySha256: p.string().length(64),
    body: p.blob(),
    status: p.enum(INBOUND_DELIVERY_STATUSES).default('pending'),
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
export class WhatsAppInboundDelivery extends InboundDeliverySchema.class {}
InboundDeliverySchema.setClass(WhatsAppInboundDelivery);
