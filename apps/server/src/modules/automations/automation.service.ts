import type { Automation } from '@switchboard/contract';
import { isoTimestamp } from '../../db/sql.js';
import type { RequestContext } from '../../http/context.js';

/** Newest first. */
export async function listAutomations(ctx: RequestContext, channelId: string): Promise<Automation[]> {
  return ctx.em.execute<Automation[]>(
    `select id, name, status, execution_count as "executionCount", ${isoTimestamp('created_at', 'createdAt')}
       from automations where channel_id = ? order by created_at desc, id desc`,
    [channelId],
  );
}
