import type { Channel } from '@switchboard/contract';
import { isoTimestamp } from '../../db/sql.js';
import type { RequestContext } from '../../http/context.js';

/** The caller's authorized channels, oldest first. */
export async function listChannels(ctx: RequestContext): Promise<Channel[]> {
  return ctx.em.execute<Channel[]>(
    `select c.id, c.name, c.phone, c.status, ${isoTimestamp('c.created_at', 'createdAt')}
       from channels c join channel_users cu on cu.channel_id = c.id
      where cu.user_id = ? and c.platform_id = ?
      order by c.created_at, c.id`,
    [ctx.caller.userId, ctx.caller.platformId],
  );
}
