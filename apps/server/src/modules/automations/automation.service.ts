import type { Automation } from '@switchboard/contract';
import type { CallerContext } from '../../kit/context.js';
import { Automation as AutomationEntity } from './automation.entity.js';

/** Newest first. */
export async function listAutomations(ctx: CallerContext, channelId: string): Promise<Automation[]> {
  const automations = await ctx.em.find(
    AutomationEntity,
    { channel: channelId },
    { fields: ['name', 'status', 'executionCount', 'createdAt'], orderBy: { createdAt: 'desc', id: 'desc' } },
  );
  return automations.map((a) => ({
    id: a.id,
    name: a.name,
    status: a.status,
    executionCount: a.executionCount,
    createdAt: a.createdAt.toISOString(),
  }));
}
