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

/** What resolving an audience recorded: its recipients, those to send and those skipped. */
export interface AudienceCounts {
  recipients: number;
  queued: number;
  skipped: number;
}

/**
 * Resolves a broadcast's audience into its recipients, in one statement: one row per distinct phone of the channel's
 * contacts the audience names (`queued`, or `skipped` with reason `contact_unsubscribed` / `contact_blocked` for a
 * contact no longer active), and their counts. Hand-written because an INSERT … SELECT keeps a 100,000-contact
 * audience inside the database (no rows sent to the server and back), which the ORM cannot express.
 */
export async function resolveAudience(
  tx: EntityManager,
  broadcast: { id: string; channelId: string; audience: BroadcastAudience },
): Promise<AudienceCounts> {
  const predicate = audiencePredicate(broadcast.audience);
  const [row] = await tx.execute<AudienceCounts[]>(
    `with inserted as (
       insert into broadcast_recipients (broadcast_id, phone, contact_id, status, reason, updated_at)
       select distinct on (c.phone) ?::uuid, c.phone, c.id,
              case when c.status = 'active' then 'queued' else 'skipped' end,
              case when c.status = 'active' then null else 'contact_' || c.status end,
              now()
         from contacts c
        where c.channel_id = ? and ${predicate.sql}
        order by c.phone, c.created_at
       on conflict do nothing
       returning status)
     select count(*)::int as recipients, (count(*) filter (where status = 'queued'))::int as queued,
            (count(*) filter (where status = 'skipped'))::int as skipped
       from inserted`,
    [broadcast.id, broadcast.channelId, ...predicate.params],
  );
  return row!;
}

/**
 * A large audience can grow broadcast_recipients many times over in one statement, long before autovacuum's next
 * round analyzes it: until then the planner takes the table for its old size, and the statement trigger that follows
 * each send into its recipient (broadcast_recipients_follow, planned once per connection) scans the table instead of
 * looking its rows up, past the statement timeout. So the table is analyzed at once when, as autovacuum counts, more
 * than a tenth of it is new. Outside the preparation's transaction: preparations of other broadcasts never wait on
 * it (an analyze holds its lock to the end of its transaction).
 */
export async function analyzeRecipientsWhenGrown(em: EntityManager, inserted: number): Promise<void> {
  const [table] = await em.execute<{ rows: number }[]>(
    `select greatest(reltuples, 0)::float8 as rows from pg_class where oid = 'broadcast_recipients'::regclass`,
  );
  if (inserted > 50 + 0.1 * table!.rows) await em.execute('analyze broadcast_recipients');
}
