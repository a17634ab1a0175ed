import { ForbiddenError, NotFoundError, ValidationError, type AppError } from '../../kit/errors.js';
import type { CallerContext } from '../../kit/context.js';

export interface ScopedChannel {
  id: string;
  platformId: string;
}

/** Ids of the channels the caller is authorized for, resolved with the API key (see http/auth.ts). */
export function authorizedChannelIds(ctx: CallerContext): readonly string[] {
  return ctx.caller.channelIds;
}

/**
 * The channel rule (docs/api.md "Channels"), in one place: an omitted channelId picks the only channel; several
 * need a channelId (400); none gives 404 `No channel found for this user.`; a channel the caller is not authorized
 * for gives 403.
 */
export async function resolveChannel(ctx: CallerContext, channelId: string | undefined): Promise<ScopedChannel> {
  const ids = authorizedChannelIds(ctx);
  if (channelId !== undefined) {
    if (!ids.includes(channelId)) throw new ForbiddenError('You are not authorized for this channel.');
    return { id: channelId, platformId: ctx.caller.platformId };
  }
  if (ids.length === 0) throw new NotFoundError('no_channel', 'No channel found for this user.');
  if (ids.length > 1) {
    throw ValidationError.field(
      'channelId',
      `is required: this key is authorized for ${ids.length} channels (see channels/list)`,
    );
  }
  return { id: ids[0]!, platformId: ctx.caller.platformId };
}

/**
 * Something addressed by its id (a contactId, a labelId) must be in the resolved channel. In another channel the
 * caller may use it is not found here (`notFound`, 404); in a channel the caller may not use (another user's or
 * another tenant's) it is 403, as that channel itself would be. `foundInChannelId` is the channel of the row with
 * that id, undefined when there is none.
 */
export function assertInChannel(
  ctx: CallerContext,
  channel: ScopedChannel,
  foundInChannelId: string | undefined,
  notFound: () => AppError,
): void {
  if (foundInChannelId === channel.id) return;
  if (foundInChannelId === undefined || authorizedChannelIds(ctx).includes(foundInChannelId)) throw notFound();
  throw new ForbiddenError('You are not authorized for the channel of this resource.');
}
