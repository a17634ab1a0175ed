import { AUTOMATION_STATUSES } from '@switchboard/contract';
import { z } from 'zod';
import { seededId, seedRef, seedSection } from '../../kit/seed.js';
import { Channel } from '../channels/index.js';
import { Automation } from './automation.entity.js';

export const automationsSeed = seedSection({
  key: 'automations',
  item: z
    .object({
      ref: seedRef.optional(),
      channel: seedRef,
      name: z.string().min(1).max(200),
      status: z.enum(AUTOMATION_STATUSES).default('active'),
      executionCount: z.number().int().min(0).default(0),
    })
    .strict(),
  async load(ctx, item, path) {
    const channel = await ctx.ref('channels', Channel, item.channel, `${path}.channel`);
    const automation = ctx.em.create(Automation, {
      channel,
      name: item.name,
      status: item.status,
      executionCount: item.executionCount,
    });
    return seededId(automation);
  },
});
