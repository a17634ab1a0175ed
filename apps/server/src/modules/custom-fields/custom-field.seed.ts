import { CUSTOM_FIELD_TYPES } from '@switchboard/contract';
import { z } from 'zod';
import { seededId, seedRef, seedSection } from '../../kit/seed.js';
import { Channel } from '../channels/index.js';
import { CustomField } from './custom-field.entity.js';

export const customFieldsSeed = seedSection({
  key: 'customFields',
  item: z
    .object({
      ref: seedRef.optional(),
      channel: seedRef,
      name: z.string().min(1).max(100),
      type: z.enum(CUSTOM_FIELD_TYPES),
      isRequired: z.boolean().default(false),
      options: z.array(z.string()).nullable().default(null),
      displayOrder: z.number().int().default(0),
    })
    .strict()
    .refine((f) => (f.type === 'select') === (f.options !== null && f.options.length > 0), {
      message: 'options must be a non-empty list for a select field and null otherwise',
      path: ['options'],
    }),
  async load(ctx, item, path) {
    const channel = await ctx.ref('channels', Channel, item.channel, `${path}.channel`);
    const field = ctx.em.create(CustomField, {
      channel,
      name: item.name,
      type: item.type,
      isRequired: item.isRequired,
      options: item.options,
      displayOrder: item.displayOrder,
    });
    return seededId(field);
  },
});
