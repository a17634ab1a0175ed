import { ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import type { RequestContext } from '../../http/context.js';

export interface ScopedChannel {
  id: string;
  platformId: string;
}

/** Ids of the channels the caller is authorized for, straight from SQL. */
export async function authorizedChannelIds(ctx: RequestContext): Promise<string[]> {
  const rows = await ctx.em.execute<{ channel_id: string }[]>(
    `select cu.channel_id from channel_users cu join channels c on c.id = cu.channel_id
      where cu.user_id = ? and c.platform_id = ? order by c.created_at, c.id`,
    [ctx.caller.userId, ctx.caller.platformId],
  );
  return rows.map((r) => r.channel_id);
}

/**
 * SPEC rule 4, in one place: an omitted channelId picks the only channel; several need a channelId (400);
 * none gives 404 `No channel found for this user.`; a channel the caller is not authorized for gives 403.
 */
export async function resolveChannel(ctx: RequestContext, channelId: string | undefined): Promise<ScopedChannel> {
  const ids = await authorizedChannelIds(ctx);
  if (channelId !== undefined) {
    if (!ids.includes(channelId)) throw new ForbiddenError('You are not authorized for this channel.');
    return { id: channelId, platformId: ctx.caller.platformId };
  }
  if (ids.length === 0) throw new NotFoundError('no_channel', 'No channel found for this user.');
  if (ids.length > 1) {
    throw ValidationError.field('channelId', `is required: this key is authorized for ${ids.length} channels (see channels/list)`);
  }
  return { id: ids[0]!, platformId: ctx.caller.platformId };
}
