import { z } from 'zod';
import { SeedError, seedRef, seedSection } from '../../kit/seed.js';
import { webhookSeed } from '../webhooks/webhook.seed.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';
import { newWebhookSecret } from '../webhooks/webhook-secrets.js';
import { Platform } from './platform.entity.js';

export const platformsSeed = seedSection({
  key: 'platforms',
  item: z
    .object({
      ref: seedRef.optional(),
      name: z.string().min(1).max(200),
      domain: z.string().min(1).max(253),
      isActive: z.boolean().default(true),
      webhooks: z.array(webhookSeed).default([]),
    })
    .strict(),
  async load({ em }, item, path) {
    if (await em.count(Platform, { domain: item.domain })) throw new SeedError(`${path}.domain`, `a platform with domain "${item.domain}" already exists`);
    const platform = em.create(Platform, { name: item.name, domain: item.domain, isActive: item.isActive });
    for (const hook of item.webhooks) {
      em.create(WebhookEndpoint, {
        platform,
        url: hook.url,
        secret: hook.secret ?? newWebhookSecret(),
        events: hook.events,
      });
    }
    return { entity: platform, result: platform.id };
  },
});
