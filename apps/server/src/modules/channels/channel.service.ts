import type { Channel } from '@switchboard/contract';
import type { CallerContext } from '../../kit/context.js';
import { Channel as ChannelEntity } from './channel.entity.js';

type ChannelRow = Omit<Channel, 'createdAt'> & { createdAt: Date };

/**
 * The caller's authorized channels (resolved with the API key, in the caller's platform), oldest first. Plain rows
 * from the QueryBuilder, not em.find: the hottest list skips hydration and the identity map, which showed in CPU
 * profiles of a saturated server (docs/benchmarks.md, "Figures behind code choices").
 */
export async function listChannels(ctx: CallerContext): Promise<Channel[]> {
  const channels = await ctx.em
    .createQueryBuilder(ChannelEntity)
    .select(['id', 'name', 'phone', 'status', 'quality', 'messagingLimit', 'createdAt'])
    .where({ id: { $in: [...ctx.caller.channelIds] }, platform: ctx.caller.platformId })
    .orderBy({ createdAt: 'asc', id: 'asc' })
    .execute<ChannelRow[]>('all');
  return channels.map(channelView);
}

/** A channel as channels/list shows it. */
export function channelView(c: ChannelRow | ChannelEntity): Channel {
  return {
    id: c.id,
    name: c.name,
    phone: c.phone,
    status: c.status,
    quality: c.quality,
    messagingLimit: c.messagingLimit ?? null,
    createdAt: c.createdAt.toISOString(),
  };
}
