import type { ServiceContext } from '../../kit/context.js';
import type { JobQueue } from '../../kit/jobs.js';
import type { StatusUpdate } from './messaging-provider.port.js';
import { movedTo, writeStatuses, type StatusChange } from './status-writer.js';

/**
 * A round of provider reports, each about a different message, as the status writer's moves: the outbound messages
 * they name (by the provider's id, within the report's channel when it names one), locked in id order so concurrent
 * batches wait rather than deadlock. The writer keeps only the moves status-order.ts allows.
 */
const REPORTED = `
  select ${movedTo({
    status: 'i.status',
    errorCode: 'i.error_code',
    errorTitle: 'i.error_title',
    eventAt: 'i.event_at',
    position: 'i.at',
  })}
    from jsonb_to_recordset(?::jsonb)
      as i(at int, provider text, provider_message_id text, channel_id uuid, status text, error_code int,
           error_title text, event_at timestamptz)
    join messages m on m.provider_message_id = i.provider_message_id and m.provider = i.provider
     and m.direction = 'outbound' and (i.channel_id is null or m.channel_id = i.channel_id)
   order by m.id
     for update of m`;

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

/**
 * The status sink's work for many reports at once (the sandbox's bursts, a webhook's batch): applies each to its
 * outbound message through the status writer, in the order given (which queues `message.status.updated` for each
 * real change). Returns the changes (repeated, late, backward and unknown reports change nothing).
 */
export async function applyStatusUpdates(
  { em: tx }: ServiceContext,
  jobs: JobQueue,
  updates: readonly StatusUpdate[],
): Promise<StatusChange[]> {
  const changed: StatusChange[] = [];
  for (const round of rounds(updates)) {
    const rows = round.map(({ update, at }) => ({
      at,
      provider: update.provider,
      provider_message_id: update.providerMessageId,
      channel_id: update.channelId ?? null,
      status: update.status,
      error_code: update.status === 'failed' ? (update.error?.code ?? null) : null,
      error_title: update.status === 'failed' ? (update.error?.title ?? null) : null,
      event_at: update.timestamp ?? null,
    }));
    changed.push(...(await writeStatuses(tx, jobs, { sql: REPORTED, params: [JSON.stringify(rows)] })));
  }
  return changed;
}

/** One report (a WhatsApp webhook's status): the change it made, or undefined when it changed nothing. */
export async function applyStatusUpdate(
  ctx: ServiceContext,
  jobs: JobQueue,
  update: StatusUpdate,
): Promise<StatusChange | undefined> {
  return (await applyStatusUpdates(ctx, jobs, [update]))[0];
}
