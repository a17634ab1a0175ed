import { webhookEventsProblem, webhookManageParams } from '@switchboard/contract';
import { z } from 'zod';
import { contractFields, seedExtension } from '../../kit/seed.js';
import type { Platform } from '../platforms/index.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { newWebhookSecret } from './webhook-secrets.js';

export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/=]{16,}$/;

/** A platform's webhook endpoint, as the seed file nests it under its platform. */
const webhookSeed = z
  .object({
    url: contractFields(webhookManageParams)
      .url.unwrap()
      .refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL'),
    secret: z.string().regex(WEBHOOK_SECRET_PATTERN, 'must be whsec_ followed by base64').optional(),
    events: z
      .array(z.string())
      .default(['ticket.closed'])
      .superRefine((events, ctx) => {
        const problem = webhookEventsProblem(events);
        if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
      }),
  })
  .strict();

/** `platforms[].webhooks`: the platform's endpoints, each with its secret (generated when not given). */
export const platformWebhooksSeed = seedExtension({
  extends: 'platforms',
  fields: { webhooks: z.array(webhookSeed).default([]) },
  async load(ctx, platform: Platform, { webhooks }) {
    for (const hook of webhooks) {
      ctx.em.create(WebhookEndpoint, {
        platform,
        url: hook.url,
        secret: hook.secret ?? newWebhookSecret(),
        events: hook.events,
      });
    }
  },
});
