import { AUTOMATION_STATUSES, automationFields } from '@switchboard/contract';
import { z } from 'zod';
import { SeedError, seededId, seedRef, seedSection } from '../../kit/seed.js';
import { Channel } from '../channels/index.js';
import { automationIssues } from './automation-checks.js';
import { Automation } from './automation.entity.js';

/**
 * An automation of the seed file: the fields automations/manage takes (trigger, conditions and actions checked the
 * same way, once the channel's labels, custom fields and templates of this file exist), plus a starting count.
 * Without a trigger it is listed but never runs.
 */
export const automationsSeed = seedSection({
  key: 'automations',
  item: z
    .object({
      ref: seedRef.optional(),
      channel: seedRef,
      name: z.string().min(1).max(200),
      status: z.enum(AUTOMATION_STATUSES).default('active'),
      executionCount: z.number().int().min(0).default(0),
      trigger: automationFields.trigger.optional(),
      conditions: automationFields.conditions.optional(),
      actions: automationFields.actions.optional(),
    })
    .strict(),
  async load(ctx, item, path) {
    const channel = await ctx.ref('channels', Channel, item.channel, `${path}.channel`);
    const definition = item.trigger
      ? { trigger: item.trigger, conditions: item.conditions ?? [], actions: item.actions ?? [] }
      : null;
    if (item.trigger && !item.actions) throw new SeedError(`${path}.actions`, 'is required with a trigger');
    if (definition) {
      await ctx.em.flush();
      const [issue] = await automationIssues(ctx.em, channel.id, definition);
      if (issue) throw new SeedError(`${path}.${issue.field}`, issue.problem);
    }
    const automation = ctx.em.create(Automation, {
      channel,
      name: item.name,
      status: item.status,
      executionCount: item.executionCount,
      ...(definition ?? {}),
    });
    return seededId(automation);
  },
});
