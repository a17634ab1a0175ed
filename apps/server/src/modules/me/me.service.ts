import type { Me } from '@switchboard/contract';
import type { CallerContext } from '../../kit/context.js';
import { listChannels } from '../channels/index.js';
import { User } from '../users/index.js';

/** workspace/me: the key's user as its platform knows it, and the channels it may use. */
export async function describeCaller(ctx: CallerContext): Promise<Me> {
  const { caller } = ctx;
  const user = await ctx.em.findOneOrFail(User, { id: caller.userId }, { fields: ['role'] });
  return {
    id: caller.userId,
    name: caller.name,
    email: caller.email,
    role: user.role,
    platformAccess: caller.platformAccess,
    platformId: caller.platformId,
    channels: await listChannels(ctx),
  };
}
