import {
  QUALITY_RATINGS,
  TEMPLATE_CATEGORIES,
  TEMPLATE_STATUSES,
  templateButtonSchema,
  templateHeaderSchema,
} from '@switchboard/contract';
import { z } from 'zod';
import { SeedError, seededId, seedRef, seedSection } from '../../kit/seed.js';
import { Channel } from '../channels/index.js';
import { Template } from './template.entity.js';
import { countPlaceholders } from './template-placeholders.js';

export const templatesSeed = seedSection({
  key: 'templates',
  item: z
    .object({
      ref: seedRef.optional(),
      channel: seedRef,
      name: z.string().min(1).max(200),
      category: z.enum(TEMPLATE_CATEGORIES),
      language: z.string().min(2).max(20),
      status: z.enum(TEMPLATE_STATUSES),
      body: z.string().min(1),
      header: templateHeaderSchema.optional(),
      footer: z.string().min(1).optional(),
      buttons: z.array(templateButtonSchema).optional(),
      quality: z.enum(QUALITY_RATINGS).optional(),
    })
    .strict(),
  async load(ctx, item, path) {
    const channel = await ctx.ref('channels', Channel, item.channel, `${path}.channel`);
    if (channel.provider !== 'sandbox') {
      throw new SeedError(
        `${path}.channel`,
        'this channel uses the WhatsApp Cloud API: its templates come from Meta (pulled when it is connected)',
      );
    }
    const template = ctx.em.create(Template, {
      channel,
      name: item.name,
      category: item.category,
      language: item.language,
      status: item.status,
      body: item.body,
      variableCount: countPlaceholders(item.body),
      header: item.header ?? null,
      footer: item.footer ?? null,
      buttons: item.buttons ?? [],
      quality: item.quality ?? 'unknown',
    });
    return seededId(template);
  },
});
