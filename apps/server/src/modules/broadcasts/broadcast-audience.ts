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

/** What resolving a chunk of an audience recorded: its recipients, those to send and those skipped. */
export interface AudienceCounts {
  recipients: number;
  queued: number;
  skipped: number;
}

/** A chunk's counts, how many contacts it took, and the last phone among them (where the next chunk starts). */
export interface ResolvedChunk extends AudienceCounts {
  taken: number;
  last: string | null;
}

/**
 * Resolves the next `limit` of the channel's contacts the audience names, after phone `after` in phone order, into
 * the broadcast's recipients, in one statement: one row per phone (a channel's phones are unique), `queued`, or
 * `skipped` with reason `contact_unsubscribed` / `contact_blocked` for a contact no longer active. Hand-written
 * because an INSERT … SELECT keeps the audience inside the database (no rows sent to the server and back), which the
 * ORM cannot express; in phone order, so each chunk is a range of the contacts' (channel, phone) index.
 */
export async function resolveAudienceChunk(
  tx: EntityManager,
  broadcast: { id: string; channelId: string; audience: BroadcastAudience },
  /** `limit` null: every contact after `after`. */
  chunk: { after: string | null; limit: number | null },
): Promise<ResolvedChunk> {
  const predicate = audiencePredicate(broadcast.audience);
  const [row] = await tx.execute<ResolvedChunk[]>(
    `with taken as (
       select c.id, c.phone, c.status from contacts c
        where c.channel_id = ? and c.phone > ? and ${predicate.sql}
        order by c.phone limit ?),
     inserted as (
       insert into broadcast_recipients (broadcast_id, phone, contact_id, status, reason, updated_at)
       select ?::uuid, t.phone, t.id,
              case when t.status = 'active' then 'queued' else 'skipped' end,
              case when t.status = 'active' then null else 'contact_' || t.status end,
              now()
         from taken t
       on conflict do nothing
       returning status)
     select (select count(*) from taken)::int as taken, (select max(phone) from taken) as last,
            count(*)::int as recipients, (count(*) filter (where status = 'queued'))::int as queued,
            (count(*) filter (where status = 'skipped'))::int as skipped
       from inserted`,
    [broadcast.channelId, chunk.after ?? '', ...predicate.params, chunk.limit, broadcast.id],
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
