import type { BroadcastRecipientStatus, MESSAGE_STATUSES } from '@switchboard/contract';
import type { SqlDefinitions } from '../../kit/sql-definitions.ts';

type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * A recipient's status for its message's: `queued` while the message waits in the outbox, then the message's
 * outcome (accepted counts as `sent`; a cancelled message's recipient is `skipped`). The message's own status moves
 * by the rules of status-order.ts (never backwards); its recipient follows wherever it goes.
 */
const RECIPIENT_STATUS_OF: Readonly<Record<MessageStatus, BroadcastRecipientStatus>> = {
  scheduled: 'queued',
  queued: 'queued',
  sending: 'queued',
  accepted: 'sent',
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  failed: 'failed',
  cancelled: 'skipped',
};

const MAPPING = Object.entries(RECIPIENT_STATUS_OF);
/** The messages' statuses in the outbox, not yet sent: their recipients are `queued` until the outcome. */
const UNSENT = MAPPING.filter(([, recipient]) => recipient === 'queued').map(([message]) => `'${message}'`);
/** The status a message's outcome gives its recipient, as a CASE over `n.status`. */
const OUTCOME = MAPPING.filter(([, recipient]) => recipient !== 'queued')
  .map(([message, recipient]) => `when '${message}' then '${recipient}'`)
  .join(' ');

/** The broadcast's counts, one per recipient status. */
const COUNTS: readonly BroadcastRecipientStatus[] = ['queued', 'sent', 'delivered', 'read', 'failed', 'skipped'];

/** A count's step: the recipients that moved to `status` less those that left it. */
const step = (status: string) =>
  `count(*) filter (where status = '${status}') - count(*) filter (where was = '${status}')`;

/** The statement's messages of broadcasts whose recipient moves, with the status and reason it moves to. */
const CHANGED = `
          select n.broadcast_id, n."to" as phone, n.msgid,
                 case n.status ${OUTCOME} end as status,
                 case when n.status = 'cancelled' then coalesce(n.reason, 'cancelled')
                      when n.status = 'failed' then
                        coalesce(n.reason, nullif(concat_ws(' ', n.error_code::text, n.error_title), '')) end as reason
            from new_rows n
           where n.broadcast_id is not null and n.status not in (${UNSENT.join(', ')})`;

/**
 * A broadcast's recipients and counts follow its messages: a statement trigger on `messages` moves each recipient of
 * a changed broadcast message to the status RECIPIENT_STATUS_OF gives (a failed one with the pipeline's reason or the
 * provider's code and text; a cancelled one with its message's reason) and adds the steps to the broadcast's counts,
 * in the transaction that changed the messages (the dispatcher's batch, a provider's status report), whatever path
 * wrote them. A recipient leaves `queued` only with its message's outcome, so the outbox's own moves are skipped
 * without comparing old and new rows (a join of the transition tables can turn quadratic: PL/pgSQL plans it once per
 * connection). The steps go to `broadcast_count_deltas`, in the shard of the connection (its backend's pid), so
 * concurrent reports of one broadcast do not all wait for one row's lock; broadcast-view.ts adds them up.
 */
export const BROADCAST_SQL: SqlDefinitions = {
  functions: [
    `create or replace function broadcast_recipients_follow() returns trigger
      language plpgsql as $$
      begin
        with changed as (${CHANGED}),
        moved as (
          update broadcast_recipients r
             set status = c.status, reason = c.reason, updated_at = now(),
                 msgid = case when c.status in ('queued', 'skipped') then r.msgid else c.msgid end
            from changed c, broadcast_recipients was
           where r.broadcast_id = c.broadcast_id and r.phone = c.phone
             and was.broadcast_id = r.broadcast_id and was.phone = r.phone and r.status <> c.status
          returning r.broadcast_id, was.status as was, r.status)
        insert into broadcast_count_deltas as d
               (broadcast_id, shard, ${COUNTS.join(', ')})
        select broadcast_id, pg_backend_pid() % 16,
               ${COUNTS.map(step).join(',\n               ')}
          from moved group by broadcast_id
        on conflict (broadcast_id, shard) do update
           set ${COUNTS.map((s) => `${s} = d.${s} + excluded.${s}`).join(', ')};
        return null;
      end $$;`,
  ],
  triggers: [
    {
      name: 'messages_broadcast_recipients_follow',
      table: 'messages',
      create: `create trigger "messages_broadcast_recipients_follow" after update on "messages"
      referencing old table as old_rows new table as new_rows
      for each statement execute function broadcast_recipients_follow();`,
    },
  ],
};
