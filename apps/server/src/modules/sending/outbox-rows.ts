import type { EntityManager } from '@mikro-orm/postgresql';
import type { Backlog } from '../../kit/jobs.js';
import type { Interactive, Location, MessageMedia, MessageType, Reaction } from '@switchboard/contract';
import { movedTo, type OutboundTemplateParts, type StatusMoves } from '../messages/index.js';
import { PARKED_REPORT_RETENTION } from './status-reports.js';

/** A claimed message, as its provider call needs it. */
export interface ClaimedSend {
  id: string;
  channel_id: string;
  /** The broadcast it belongs to: its hand-over waits for, and stops at, the broadcast's cancel. */
  broadcast_id: string | null;
  to: string;
  type: MessageType;
  provider: string;
  template_name: string | null;
  language: string | null;
  variables: string[] | null;
  template_parts: OutboundTemplateParts | null;
  body: string | null;
  preview_url: boolean;
  media: MessageMedia | null;
  /** The provider's id of the quoted message. */
  reply_to_provider_id: string | null;
  interactive: Interactive | null;
  reaction: Reaction | null;
  /** The provider's id of the message reacted to. */
  reaction_provider_id: string | null;
  location: Location | null;
  /** Its calls the provider throttled so far. */
  attempts: number;
}

/**
 * What a provider call came to; `queued`: the provider sent nothing, so it is to be made later: at once (its due time
 * kept: SendNotMadeError), or `retryInSeconds` from now when the provider throttled it.
 */
export type SendOutcome =
  | { id: string; status: 'accepted'; providerMessageId: string; takesProviderId?: boolean }
  | { id: string; status: 'failed'; errorCode: number | null; errorTitle: string | null; reason: string | null }
  | { id: string; status: 'queued'; retryInSeconds?: number };

/** A dispatcher that has beaten within HEARTBEAT_STALE_SECONDS (`?`: the seconds); `m.sending_by` names it. */
const LIVE_DISPATCHER = `exists (select 1 from "send_dispatchers" as d
  where d."id" = m."sending_by" and d."seen_at" > now() - make_interval(secs => ?))`;

/** What a claim returns: the columns a provider call needs, the quoted message looked up within the channel. */
const CLAIMED = `m."id", m."channel_id", m."broadcast_id", m."to", m."type", m."provider", m."template_name",
  m."language", m."variables", m."template_parts", m."body", m."preview_url", m."media", m."interactive",
  m."reaction", m."location", m."attempts",
  (select coalesce(q."provider_message_id", q."msgid") from "messages" as q
    where q."msgid" = m."reply_to" and q."channel_id" = m."channel_id") as reply_to_provider_id,
  (select coalesce(q."provider_message_id", q."msgid") from "messages" as q
    where q."msgid" = m."reaction"->>'msgid' and q."channel_id" = m."channel_id") as reaction_provider_id`;

/**
 * Reserves up to `limit` of a channel's due messages for one dispatcher: its id in `sending_by`, their status still
 * `queued` or `scheduled` until each is handed over at its slot (handOverMoves), so cancelling one meanwhile needs no
 * dispatcher's help. The statement is its own transaction; SKIP LOCKED lets instances claim side by side, and a
 * reserved message is not claimed again; oldest due first.
 */
export async function claimDueSends(
  em: EntityManager,
  dispatcherId: string,
  channelId: string,
  limit: number,
): Promise<ClaimedSend[]> {
  return em.execute<ClaimedSend[]>(
    `update "messages" as m set "sending_by" = ?
      where m."id" in (
        select "id" from "messages"
         where "channel_id" = ? and "status" in ('queued', 'scheduled') and "sending_by" is null and "due_at" <= now()
         order by "due_at" limit ? for update skip locked)
      returning ${CLAIMED}`,
    [dispatcherId, channelId, limit],
  );
}

/** A queued message an API request reserved as it queued it (queueSend's `sendingBy`), as claimDueSends returns it. */
export async function reservedSend(
  em: EntityManager,
  dispatcherId: string,
  id: string,
): Promise<ClaimedSend | undefined> {
  const rows = await em.execute<ClaimedSend[]>(
    `select ${CLAIMED} from "messages" as m where m."id" = ? and m."status" = 'queued' and m."sending_by" = ?`,
    [id, dispatcherId],
  );
  return rows[0];
}

/**
 * The hand-over of reserved messages whose slot has come, as the status writer's moves: each still reserved by this
 * dispatcher and still queued or scheduled becomes `sending` (its call is made once this commits), or `cancelled`
 * instead: reason `cancelled` when its broadcast was stopped (`stoppedBroadcasts`), `contact_<status>` when it needs
 * consent (a MARKETING template, a broadcast's send) and its contact is no longer `active`.
 */
export function handOverMoves(dispatcherId: string, ids: readonly string[], stoppedBroadcasts: string[]): StatusMoves {
  return {
    sql: `select ${movedTo({ status: `case when w.why is null then 'sending' else 'cancelled' end`, reason: 'w.why' })}
            from "messages" as m
            left join "contacts" as c on c."id" = m."contact_id"
           cross join lateral (select case when m."broadcast_id" = any(?::uuid[]) then 'cancelled'
                                           when m."needs_consent" and c."status" <> 'active'
                                           then 'contact_' || c."status" end as why) as w
           where m."id" = any(?::uuid[]) and m."status" in ('queued', 'scheduled') and m."sending_by" = ?
           order by m."id"
             for update of m`,
    params: [`{${stoppedBroadcasts.join(',')}}`, `{${ids.join(',')}}`, dispatcherId],
  };
}

/**
 * Gives back reserved sends whose broadcast is paused, at their hand-over, instead of handing them over: still
 * `queued`, no longer reserved, and held (never due, due_at null) until the broadcast resumes. Returns their ids.
 */
export async function holdPausedSends(
  tx: EntityManager,
  dispatcherId: string,
  ids: readonly string[],
): Promise<string[]> {
  const rows = await tx.execute<{ id: string }[]>(
    `update "messages" set "sending_by" = null, "due_at" = null
      where "id" = any(?::uuid[]) and "sending_by" = ? and "status" in ('queued', 'scheduled')
      returning "id"`,
    [`{${ids.join(',')}}`, dispatcherId],
  );
  return rows.map((row) => row.id);
}

/**
 * Throttled sends just moved back to `queued` (outcomeMoves): each due again `retryInSeconds` from now, its attempt
 * counted, in the caller's transaction (the one that recorded the outcomes, so no dispatcher claims it before).
 */
export async function deferThrottled(tx: EntityManager, outcomes: readonly SendOutcome[]): Promise<void> {
  const later = outcomes.flatMap((outcome) =>
    outcome.status === 'queued' && outcome.retryInSeconds !== undefined
      ? [{ id: outcome.id, secs: outcome.retryInSeconds }]
      : [],
  );
  if (later.length === 0) return;
  await tx.execute(
    `update "messages" as m set "due_at" = now() + make_interval(secs => o."secs"), "attempts" = m."attempts" + 1
       from jsonb_to_recordset(?::jsonb) as o("id" uuid, "secs" float8)
      where m."id" = o."id" and m."status" = 'queued' and m."sending_by" is null`,
    [JSON.stringify(later)],
    'run',
  );
}

/**
 * A batch's outcomes as the status writer's moves, only on rows this dispatcher still holds (`sending`, its id): a
 * row another dispatcher declared `outcome_unknown` meanwhile keeps that verdict. A send not made goes back to
 * `queued`, released, its due time kept, so it is claimed again first (and stopped at its hand-over if its broadcast
 * was cancelled meanwhile). An accepted send that `takesProviderId` (one the API's request handed over) gets the
 * provider's id as its msgid, what its caller is answered, unless another message holds that msgid already.
 */
export function outcomeMoves(dispatcherId: string, outcomes: readonly SendOutcome[]): StatusMoves {
  const rows = outcomes.map((outcome) => {
    if (outcome.status === 'accepted')
      return { id: outcome.id, status: 'accepted', pid: outcome.providerMessageId, takes: outcome.takesProviderId };
    if (outcome.status === 'queued') return { id: outcome.id, status: 'queued' };
    const { errorCode: code, errorTitle: title, reason } = outcome;
    return { id: outcome.id, status: 'failed', code, title, reason };
  });
  return {
    sql: `select ${movedTo({
      status: 'o."status"',
      reason: 'o."reason"',
      errorCode: 'o."code"',
      errorTitle: 'o."title"',
      providerMessageId: 'o."pid"',
      msgid: `case when o."takes" and not exists (select 1 from "messages" as x where x."msgid" = o."pid")
              then o."pid" end`,
    })}
            from jsonb_to_recordset(?::jsonb) as o("id" uuid, "status" text, "pid" text, "code" int, "title" text,
              "reason" text, "takes" boolean)
            join "messages" as m on m."id" = o."id"
           where m."status" = 'sending' and m."sending_by" = ?
           order by m."id"
             for update of m`,
    params: [JSON.stringify(rows), dispatcherId],
  };
}

/**
 * The messages whose dispatcher died between handing them over and recording the provider's answer, as the status
 * writer's moves: the call may or may not have happened, so they are `failed` with reason `outcome_unknown`, never
 * sent again.
 */
export const abandonedMoves = (staleSeconds: number): StatusMoves => ({
  sql: `select ${movedTo({ status: `'failed'`, reason: `'outcome_unknown'` })}
          from "messages" as m
         where m."status" = 'sending' and m."sending_by" is not null and not ${LIVE_DISPATCHER}
         order by m."id"
           for update of m`,
  params: [staleSeconds],
});

/**
 * Releases the reservations of dispatchers that died before handing their messages over (never sent: they are
 * claimed again), and forgets dispatchers long gone and parked reports no message took. Not a status change: they
 * stay queued or scheduled.
 */
export async function releaseAbandonedClaims(em: EntityManager, staleSeconds: number): Promise<void> {
  await em.execute(
    `update "messages" as m set "sending_by" = null
      where m."status" in ('queued', 'scheduled') and m."sending_by" is not null and not ${LIVE_DISPATCHER}`,
    [staleSeconds],
    'run',
  );
  await em.execute(`delete from "send_dispatchers" where "seen_at" < now() - interval '1 day'`, [], 'run');
  await em.execute(
    `delete from "message_status_reports_parked" where "parked_at" < now() - ?::interval`,
    [PARKED_REPORT_RETENTION],
    'run',
  );
}

/** Channels with an unreserved message due now, in no particular order (each is drained on its own). */
export async function channelsWithDueSends(em: EntityManager): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    `select c."id" from "channels" as c where exists (select 1 from "messages" as m
      where m."channel_id" = c."id" and m."status" in ('queued', 'scheduled') and m."sending_by" is null
        and m."due_at" <= now())`,
  );
  return rows.map((row) => row.id);
}

/** How long a dispatcher may go without a heartbeat before its `sending` messages count as abandoned. */
export const HEARTBEAT_STALE_SECONDS = 10;
export const HEARTBEAT_EVERY_MS = 2_000;

export async function beat(em: EntityManager, dispatcherId: string): Promise<void> {
  await em.execute(
    `insert into "send_dispatchers" ("id", "seen_at") values (?, now())
      on conflict ("id") do update set "seen_at" = excluded."seen_at"`,
    [dispatcherId],
    'run',
  );
}

/** A dispatcher stopping cleanly: nothing of its own is left in a provider call, and its reservations are released. */
export async function forget(em: EntityManager, dispatcherId: string): Promise<void> {
  await em.execute(
    `with released as (
       update "messages" set "sending_by" = null where "sending_by" = ? and "status" in ('queued', 'scheduled'))
     delete from "send_dispatchers" where "id" = ?`,
    [dispatcherId, dispatcherId],
    'run',
  );
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
