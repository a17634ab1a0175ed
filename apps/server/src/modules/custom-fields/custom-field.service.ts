import type { CustomField } from '@switchboard/contract';
import type { RequestContext } from '../../http/context.js';

/** Definitions by displayOrder; `options` only for `select` fields (an empty list if a select has none stored). */
export async function listCustomFields(ctx: RequestContext, channelId: string): Promise<CustomField[]> {
  return ctx.em.execute<CustomField[]>(
    `select id, name, type, is_required as "isRequired",
            case when type = 'select' then coalesce(options, '[]'::jsonb) end as options,
            display_order as "displayOrder"
       from custom_fields where channel_id = ? order by display_order, name`,
    [channelId],
  );
}
