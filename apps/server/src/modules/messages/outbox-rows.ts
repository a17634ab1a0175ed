import type { EntityManager } from '@mikro-orm/postgresql';
import type { Backlog } from '../../kit/jobs.js';
import type { MessageMedia, MessageType } from '@switchboard/contract';

/** A claimed message, as its provider call needs it. */
export interface ClaimedSend {
  id: string;
  channel_id: string;
  to: string;
  type: MessageType;
  provider: string;
  template_name: string | null;
  language: string | null;
  variables: string[] | null;
  body: string | null;
  media: MessageMedia | null;
  /** The provider's id of the quoted message. */
  reply_to_provider_id: string | null;
}

/** What a provider call came to; `queued`: the provider sent nothing (SendNotMadeError), so it is to be made later. */
export type SendOutcome =
  | { id: string; status: 'accepted'; providerMessageId: string }
  | { id: string; status: 'failed'; errorCode: number | null; errorTitle: string | null; reason: string | null }
  | { id: string; status: 'queued' };

/**
 * Claims up to `limit` of a channel's due messages for one dispatcher: `sending`, committed before any call is
 * made (the statement is its own transaction), so a message is claimed once. SKIP LOCKED lets instances claim side
 * by side; oldest due first.
 */
export async function claimDueSends(
  em: EntityManager,
  dispatcherId: string,
  channelId: string,
  limit: number,
): Promise<ClaimedSend[]> {
  return em.execute<ClaimedSend[]>(
    `update "messages" as m set "status" = 'sending', "sending_by" = ?, "updated_at" = now()
      where m."id" in (
        select "id" from "messages" where "channel_id" = ? and "status" in ('queued', 'scheduled') and "due_at" <= now()
        order by "due_at" limit ? for update skip locked)
      returning m."id", m."channel_id", m."to", m."type", m."provider", m."template_name", m."language",
        m."variables", m."body", m."media",
        (select q."provider_message_id" from "messages" as q where q."msgid" = m."reply_to") as reply_to_provider_id`,
    [dispatcherId, channelId, limit],
  );
}

/**
 * Records a batch's outcomes in one statement, only on rows this dispatcher still holds (`sending`, its id): a row
 * another dispatcher declared `outcome_unknown` meanwhile keeps that verdict. A send not made goes back to `queued`
 * (its due time kept, so it is claimed again first, at a slot of the budget), or to `cancelled` when its broadcast
 * was cancelled while it was claimed (cancelQueuedSends left that reason on it).
 */
export async function recordSendOutcomes(
  em: EntityManager,
  dispatcherId: string,
  outcomes: readonly SendOutcome[],
): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = outcomes.map((outcome) => {
    if (outcome.status === 'accepted') return { id: outcome.id, status: 'accepted', pid: outcome.providerMessageId };
    if (outcome.status === 'queued') return { id: outcome.id, status: 'queued' };
    const { errorCode: code, errorTitle: title, reason } = outcome;
    return { id: outcome.id, status: 'failed', code, title, reason };
  });
  await em.execute(
    `update "messages" as m set
        "status" = case when v."status" = 'queued' and m."reason" = 'cancelled' then 'cancelled' else v."status" end,
        "reason" = case when v."status" = 'queued' then m."reason" else v."reason" end,
        "provider_message_id" = v."pid", "error_code" = v."code", "error_title" = v."title", "sending_by" = null,
        "updated_at" = now()
      from jsonb_to_recordset(?::jsonb) as v("id" uuid, "status" text, "pid" text, "code" int, "title" text,
        "reason" text)
      where m."id" = v."id" and m."status" = 'sending' and m."sending_by" = ?`,
    [JSON.stringify(rows), dispatcherId],
    'run',
  );
}

/** Channels with a message due now, in no particular order (each is drained on its own). */
export async function channelsWithDueSends(em: EntityManager): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    `select c."id" from "channels" as c where exists (select 1 from "messages" as m
      where m."channel_id" = c."id" and m."status" in ('queued', 'scheduled') and m."due_at" <= now())`,
  );
  return rows.map((row) => row.id);
}

/** How long a dispatcher may go without a heartbeat before its `sending` messages count as abandoned. */
export const HEARTBEAT_STALE_SECONDS = 10;

export async function beat(em: EntityManager, dispatcherId: string): Promise<void> {
  await em.execute(
    `insert into "send_dispatchers" ("id", "seen_at") values (?, now())
      on conflict ("id") do update set "seen_at" = excluded."seen_at"`,
    [dispatcherId],
    'run',
  );
}

/** A dispatcher stopping cleanly: nothing of its own is left in a provider call. */
export async function forget(em: EntityManager, dispatcherId: string): Promise<void> {
  await em.execute(`delete from "send_dispatchers" where "id" = ?`, [dispatcherId], 'run');
}

/**
 * Ends the messages whose dispatcher died between claiming them and recording the provider's answer: the call may
 * or may not have happened, so they are `failed` with reason `outcome_unknown`, never sent again. Also forgets
 * dispatchers long gone. Returns how many messages it ended.
 */
export async function endAbandonedSends(em: EntityManager): Promise<number> {
  const { affectedRows } = await em.execute<{ affectedRows: number }>(
    `update "messages" set "status" = 'failed', "reason" = 'outcome_unknown', "sending_by" = null, "updated_at" = now()
      where "status" = 'sending' and not exists (select 1 from "send_dispatchers" as d
        where d."id" = "messages"."sending_by" and d."seen_at" > now() - make_interval(secs => ?))`,
    [HEARTBEAT_STALE_SECONDS],
    'run',
  );
  await em.execute(`delete from "send_dispatchers" where "seen_at" < now() - interval '1 day'`, [], 'run');
  return affectedRows;
}

/** The pipeline's work: due (queued, due scheduled, or in a provider call) and later (scheduled ahead). */
export async function outboxBacklog(em: EntityManager): Promise<Backlog> {
  const rows = await em.execute<Backlog[]>(
    `select count(*) filter (where "status" = 'sending' or "due_at" <= now())::int as due,
        count(*) filter (where "status" <> 'sending' and "due_at" > now())::int as later
      from "messages" where "status" in ('queued', 'scheduled', 'sending')`,
  );
  return rows[0]!;
}
