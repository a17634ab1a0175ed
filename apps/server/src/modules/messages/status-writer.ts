import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGE_OUTCOMES, MESSAGE_STATUSES, messageError, type MessageReason } from '@switchboard/contract';
import { MESSAGE_STATUS_UPDATED, queueMessageEvents, type MessageStatusUpdatedData } from './message-events.js';
import { statusesMovingTo } from './status-order.js';

type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * Which messages a write moves, and to what: a SELECT over `messages m` (see movedTo) that locks every row it moves
 * (`FOR UPDATE OF m`, in id order or SKIP LOCKED, with all its conditions in its WHERE, so a row changed meanwhile is
 * checked again once locked).
 */
export interface StatusMoves {
  sql: string;
  params: unknown[];
}

/** What a move sets, as SQL expressions over the moves' FROM (a missing one is null). */
export interface MoveValues {
  status: string;
  reason?: string;
  errorCode?: string;
  errorTitle?: string;
  /** The provider's id, once it accepted the send. */
  providerMessageId?: string;
  /** The message's new msgid: a send handed over in the API's request takes the provider's id, as it always had. */
  msgid?: string;
  /** When the change happened (a provider's report time); now when null. */
  eventAt?: string;
  /** The move's place in the caller's list: events go out in this order. */
  position?: string;
}

/** The select list StatusMoves returns: each message's id, its status now, and what the move sets. */
export const movedTo = (values: MoveValues): string =>
  `m.id, m.status as previous, (${values.status})::text as status, (${values.reason ?? 'null'})::text as reason,
   (${values.errorCode ?? 'null'})::int as error_code, (${values.errorTitle ?? 'null'})::text as error_title,
   (${values.providerMessageId ?? 'null'})::text as provider_message_id, (${values.msgid ?? 'null'})::text as new_msgid,
   (${values.eventAt ?? 'null'})::timestamptz as event_at, (${values.position ?? 'null'})::int as position`;

/** One message's status as writeStatuses changed it. */
export interface StatusChange {
  id: string;
  msgid: string;
  channelId: string;
  direction: 'inbound' | 'outbound';
  previous: MessageStatus;
  status: MessageStatus;
  reason: MessageReason | null;
  errorCode: number | null;
  errorTitle: string | null;
  at: Date;
  position: number | null;
  /** The channel's platform, whose events announce the change. */
  platformId: string;
}

/** status-order.ts's rule in SQL: the statuses a message may move to `v.status` from. */
const MOVES_FROM = `case v.status ${MESSAGE_STATUSES.map(
  (status) => `when '${status}' then array[${statusesMovingTo(status).map((from) => `'${from}'`)}]::text[]`,
).join(' ')} end`;

/**
 * Moves the rows the moves name, each only from a status the rule lets it leave for its new one, in one statement:
 * `reason` and the provider's `error` are the move's (cleared otherwise), the provider's id kept once known, the msgid
 * changed only by a move that names one, and the
 * dispatcher's hold kept only into `sending`. Hand-written because the ORM cannot express an UPDATE … FROM a locked
 * CTE.
 */
const WRITE_SQL = (moves: string) => `
  with v as materialized (${moves})
  update messages m
     set status = v.status, reason = v.reason, error_code = v.error_code, error_title = v.error_title,
         msgid = coalesce(v.new_msgid, m.msgid),
         provider_message_id = coalesce(v.provider_message_id, m.provider_message_id),
         sending_by = case when v.status = 'sending' then m.sending_by end, updated_at = now()
    from v
   where m.id = v.id and v.previous = any(${MOVES_FROM})
  returning m.id, m.msgid, m.channel_id as "channelId", m.direction, v.previous, m.status, m.reason,
            m.error_code as "errorCode", m.error_title as "errorTitle", coalesce(v.event_at, now()) as at, v.position,
            (select c.platform_id from channels c where c.id = m.channel_id) as "platformId"`;

const ANNOUNCED = new Set<string>(MESSAGE_OUTCOMES);

function statusEvent(change: StatusChange): MessageStatusUpdatedData {
  return {
    msgid: change.msgid,
    channelId: change.channelId,
    status: change.status as (typeof MESSAGE_OUTCOMES)[number],
    previousStatus: change.previous,
    ...(change.status === 'failed' && change.errorCode !== null
      ? { error: messageError(change.errorCode, change.errorTitle ?? '') }
      : {}),
    ...(change.reason ? { reason: change.reason } : {}),
    timestamp: new Date(change.at).toISOString(),
  };
}

/**
 * The one writer of message statuses (every module and path that changes one comes here): applies the moves in the
 * caller's transaction by status-order.ts's rule, and for each outbound message whose status really changed to an
 * outcome (accepted, sent, delivered, read, failed, cancelled) queues `message.status.updated` in the same
 * transaction, once, with its exact `previousStatus`, in the moves' order. The dispatcher's hand-over into `sending`
 * and a send not made going back to `queued` are the pipeline's own steps: no event. Returns the changes.
 */
export async function writeStatuses(tx: EntityManager, moves: StatusMoves): Promise<StatusChange[]> {
  const changes = await tx.execute<StatusChange[]>(WRITE_SQL(moves.sql), moves.params);
  const announced = changes
    .filter((change) => change.direction === 'outbound' && ANNOUNCED.has(change.status))
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
    .map(statusEvent);
  await queueMessageEvents(
    tx,
    announced.map((data) => ({ type: MESSAGE_STATUS_UPDATED, timestamp: data.timestamp, data })),
    new Map(changes.map((change) => [change.channelId, change.platformId])),
  );
  return changes;
}
