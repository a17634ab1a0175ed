import { randomUUID } from 'node:crypto';
import { webhookEventsProblem, webhookManageParams } from '@switchboard/contract';
import { z } from 'zod';
import { AppError } from '../../kit/errors.js';
import { contractFields, SeedError, seedExtension } from '../../kit/seed.js';
import type { Platform } from '../platforms/index.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { WEBHOOK_SECRETS } from './webhook-secret-box.js';
import { newWebhookSecret } from '../webhook-transport/index.js';

export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/=]{16,}$/;

/** A platform's webhook endpoint, as the seed file nests it under its platform. */
const webhookSeed = z
  .object({
    url: contractFields(webhookManageParams)
      .url.unwrap()
      .refine((u: string) => /^https?:\/\//.test(u), 'must be an http(s) URL'),
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
  async load(ctx, platform: Platform, { webhooks }, path) {
    for (const [index, hook] of webhooks.entries()) {
      const at = `${path}.webhooks.${index}`;
      if (!ctx.services)
        throw new SeedError(
          at,
          'a webhook endpoint needs the server’s services (its secret is sealed): load this file with `pnpm cli seed`',
        );
      const id = randomUUID();
      let secretCiphertext: string;
      try {
        secretCiphertext = ctx.services.get(WEBHOOK_SECRETS).seal(id, hook.secret ?? newWebhookSecret());
      } catch (error) {
        if (error instanceof AppError) throw new SeedError(at, error.message);
        throw error;
      }
      ctx.em.create(WebhookEndpoint, { id, platform, url: hook.url, secretCiphertext, events: hook.events });
    }
  },
});
