import type { EntityManager } from '@mikro-orm/postgresql';
import type { BroadcastAudience } from '@switchboard/contract';

/** Which of the channel's contacts `c` an audience names, and the statement parameters that predicate takes. */
function audiencePredicate(audience: BroadcastAudience): { sql: string; params: unknown[] } {
  if (audience.labelIds)
    return {
      sql: `exists (select 1 from contact_labels cl where cl.contact_id = c.id and cl.label_id = any(?::uuid[]))`,
      params: [`{${audience.labelIds.join(',')}}`],
    };
  if (audience.contactIds) return { sql: 'c.id = any(?::uuid[])', params: [`{${audience.contactIds.join(',')}}`] };
  return { sql: 'true', params: [] };
}

/**
 * Resolves a broadcast's audience into its recipients and their counts, in one statement: one row per distinct phone
 * of the channel's contacts the audience names (`queued`, or `skipped` with the contact's status as the reason for
 * an unsubscribed or blocked contact), and the broadcast's counts set from what was inserted. Hand-written because
 * an INSERT … SELECT with a data-modifying CTE keeps a 100,000-contact audience inside the database (no rows sent
 * to the server and back), which the ORM cannot express. Returns how many recipients are queued.
 */
export async function resolveAudience(
  tx: EntityManager,
  broadcast: { id: string; channelId: string; audience: BroadcastAudience },
): Promise<number> {
  const predicate = audiencePredicate(broadcast.audience);
  const [row] = await tx.execute<{ queued: number }[]>(
    `with inserted as (
       insert into broadcast_recipients (broadcast_id, phone, contact_id, status, reason, updated_at)
       select distinct on (c.phone) ?::uuid, c.phone, c.id,
              case when c.status = 'active' then 'queued' else 'skipped' end,
              case when c.status = 'active' then null else c.status end,
              now()
         from contacts c
        where c.channel_id = ? and ${predicate.sql}
        order by c.phone, c.created_at
       on conflict do nothing
       returning status)
     update broadcasts b
        set recipients = n.recipients, queued = n.queued, skipped = n.skipped, updated_at = now()
       from (select count(*)::int as recipients,
                    (count(*) filter (where status = 'queued'))::int as queued,
                    (count(*) filter (where status = 'skipped'))::int as skipped
               from inserted) n
      where b.id = ?
     returning b.queued`,
    [broadcast.id, broadcast.channelId, ...predicate.params, broadcast.id],
  );
  return row!.queued;
}
