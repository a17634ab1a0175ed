import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Platform } from '../platforms/platform.entity.js';

const WebhookEndpointSchema = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  properties: {
    id: uuidPrimaryKey(),
    platform: () => p.manyToOne(Platform).deleteRule('cascade'),
    url: p.string().length(2000),
    /** Standard Webhooks signing secret, `whsec_<base64>`. */
    secret: p.string().length(200).hidden(),
    events: p.array().default([]),
    isActive: p.boolean().default(true),
    createdAt: createdAtColumn(),
  },
  indexes: [{ name: 'webhook_endpoints_platform_id_index', properties: ['platform'] }],
});
export class WebhookEndpoint extends WebhookEndpointSchema.class {}
WebhookEndpointSchema.setClass(WebhookEndpoint);
