import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Platform } from '../platforms/index.js';

const WebhookEndpointSchema = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  properties: {
    id: uuidPrimaryKey(),
    platform: () => p.manyToOne(Platform).deleteRule('cascade'),
    url: p.string().length(2000),
    description: p.text().nullable(),
    /** Standard Webhooks signing secret, `whsec_<base64>`, sealed with SECRETS_KEY (webhook-secret-box.ts). */
    secretCiphertext: p.text().hidden(),
    /** The secret a rotation replaced, sealed: it signs beside the current one until `previousSecretExpiresAt`. */
    previousSecretCiphertext: p.text().nullable().hidden(),
    previousSecretExpiresAt: p.datetime().nullable(),
    events: p.array().default([]),
    isActive: p.boolean().default(true),
    /** Deliveries go out in batches: one POST carries up to WEBHOOK_BATCH_MAX events as a JSON array. */
    batch: p.boolean().default(false),
    /** Since when every attempt has failed; null after a success. */
    failingSince: p.datetime().nullable(),
    /** When the server disabled the endpoint for failing (isActive false); null when it did not. */
    disabledAt: p.datetime().nullable(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  indexes: [{ name: 'webhook_endpoints_platform_id_index', properties: ['platform'] }],
});
export class WebhookEndpoint extends WebhookEndpointSchema.class {}
WebhookEndpointSchema.setClass(WebhookEndpoint);
