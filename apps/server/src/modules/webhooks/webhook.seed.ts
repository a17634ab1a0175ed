import { webhookEventsProblem } from '@switchboard/contract';
import { z } from 'zod';

export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/=]{16,}$/;

/** A platform's webhook endpoint, as the seed file nests it under its platform. */
export const webhookSeed = z
  .object({
    url: z.string().url().refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL'),
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
