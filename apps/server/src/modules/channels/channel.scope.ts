import { ForbiddenError, NotFoundError, ValidationError } from '../../kit/errors.js';
import type { ServiceContext } from '../../kit/context.js';

export interface ScopedChannel {
  id: string;
  platformId: string;
}

/** Ids of the channels the caller is authorized for, resolved with the API key (see http/auth.ts). */
export function authorizedChannelIds(ctx: ServiceContext): readonly string[] {
  return ctx.caller.channelIds;
}

/**
 * SPEC rule 4, in one place: an omitted channelId picks the only channel; several need a channelId (400);
 * none gives 404 `No channel found for this user.`; a channel the caller is not authorized for gives 403.
 */
export async function resolveChannel(ctx: ServiceContext, channelId: string | undefined): Promise<ScopedChannel> {
  const ids = authorizedChannelIds(ctx);
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
