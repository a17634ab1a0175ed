import type { Channel } from '@switchboard/contract';
import type { ServiceContext } from '../../kit/context.js';
import { Channel as ChannelEntity } from './channel.entity.js';

/** The caller's authorized channels (resolved with the API key, in the caller's platform), oldest first. */
export async function listChannels(ctx: ServiceContext): Promise<Channel[]> {
  const channels = await ctx.em.find(
    ChannelEntity,
    { id: { $in: [...ctx.caller.channelIds] }, platform: ctx.caller.platformId },
    { fields: ['name', 'phone', 'status', 'createdAt'], orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  return channels.map((c) => ({ id: c.id, name: c.name, phone: c.phone, status: c.status, createdAt: c.createdAt.toISOString() }));
}
