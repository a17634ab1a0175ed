import type { ServiceContext } from '../../kit/context.js';
import type { JobQueue } from '../../kit/jobs.js';
import { MESSAGE_STATUS_UPDATED, queueMessageEvents, type MessageStatusUpdatedData } from './message-events.js';
import type { DeliveryStatus, StatusUpdate } from './messaging-provider.port.js';
import { statusesReplacedBy } from './status-order.js';

interface StatusChange {
  msgid: string;
  channelId: string;
  previous: DeliveryStatus;
  at: number;
}

/**
 * One statement for a batch of reports, each about a different message: lock the outbound messages they name
 * (in id order, so concurrent batches wait rather than deadlock) whose status the report replaces by
 * status-order.ts's rule, and move them on. Hand-written because the ORM cannot express an UPDATE … FROM a locked
 * CTE of a JSON document's rows. Returns each change with the position of its report.
 */
const APPLY_SQL = `
  with incoming as (
    select * from jsonb_to_recordset(?::jsonb)
      as i(at int, provider text, provider_message_id text, channel_id uuid, status text, replaces text[],
           error_code int, error_title text)),
  target as (
    select m.id, m.msgid, m.channel_id, m.status as previous, i.at, i.status, i.error_code, i.error_title
      from incoming i
      join messages m on m.provider_message_id = i.provider_message_id and m.provider = i.provider
       and m.direction = 'outbound' and (i.channel_id is null or m.channel_id = i.channel_id)
     where m.status = any(i.replaces)
     order by m.id
       for update of m)
  update messages m
     set status = t.status, error_code = t.error_code, error_title = t.error_title, updated_at = now()
    from target t
   where m.id = t.id
  returning m.msgid, m.channel_id as "channelId", t.previous, t.at`;

/** The reports in rounds in which each message appears once, keeping each message's reports in their order. */
function rounds(updates: readonly StatusUpdate[]): { update: StatusUpdate; at: number }[][] {
  const seen = new Map<string, number>();
  const out: { update: StatusUpdate; at: number }[][] = [];
  updates.forEach((update, at) => {
    const key = `${update.provider}:${update.providerMessageId}`;
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    (out[round] ??= []).push({ update, at });
  });
  return out;
}

function statusEvent(update: StatusUpdate, change: StatusChange): MessageStatusUpdatedData {
  const error = update.status === 'failed' ? update.error : undefined;
  return {
    msgid: change.msgid,
    channelId: change.channelId,
    status: update.status,
    previousStatus: change.previous,
    ...(error ? { error } : {}),
    timestamp: update.timestamp ?? new Date().toISOString(),
  };
}

/**
 * The status sink's work for many reports at once (the sandbox's bursts, a webhook's batch): applies each to its
 * outbound message by status-order.ts's rule, in the order given, and for each status that changes queues
 * `message.status.updated` in the same transaction, with the exact `previousStatus`. Returns the changes (repeated,
 * late, backward and unknown reports change nothing).
 */
export async function applyStatusUpdates(
  { em: tx }: ServiceContext,
  jobs: JobQueue,
  updates: readonly StatusUpdate[],
): Promise<MessageStatusUpdatedData[]> {
  const changed: MessageStatusUpdatedData[] = [];
  for (const round of rounds(updates)) {
    const rows = round.map(({ update, at }) => ({
      at,
      provider: update.provider,
      provider_message_id: update.providerMessageId,
      channel_id: update.channelId ?? null,
      status: update.status,
      replaces: statusesReplacedBy(update.status),
      error_code: update.status === 'failed' ? (update.error?.code ?? null) : null,
      error_title: update.status === 'failed' ? (update.error?.title ?? null) : null,
    }));
    const changes = await tx.execute<StatusChange[]>(APPLY_SQL, [JSON.stringify(rows)]);
    changed.push(...changes.sort((a, b) => a.at - b.at).map((change) => statusEvent(updates[change.at]!, change)));
  }
  await queueMessageEvents(
    tx,
    jobs,
    changed.map((data) => ({ type: MESSAGE_STATUS_UPDATED, timestamp: data.timestamp, data })),
  );
  return changed;
}

/** One report (a WhatsApp webhook's status): the change it made, or undefined when it changed nothing. */
export async function applyStatusUpdate(
  ctx: ServiceContext,
  jobs: JobQueue,
  update: StatusUpdate,
): Promise<MessageStatusUpdatedData | undefined> {
  return (await applyStatusUpdates(ctx, jobs, [update]))[0];
}
