import type { EntityManager } from '@mikro-orm/postgresql';
import type { ServiceContext } from '../../kit/context.js';
import { movedTo, writeStatuses, type StatusChange, type StatusUpdate } from '../messages/index.js';

/** How long a parked report waits for its message: a provider's id no message took by then never will. */
export const PARKED_REPORT_RETENTION = '1 day';

/** The reports' columns, as REPORTED and PARK read them. */
const REPORT_ROW = `i(at int, provider text, provider_message_id text, channel_id uuid, status text, error_code int,
  error_title text, event_at timestamptz)`;

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
    from jsonb_to_recordset(?::jsonb) as ${REPORT_ROW}
    join messages m on m.provider_message_id = i.provider_message_id and m.provider = i.provider
     and m.direction = 'outbound' and (i.channel_id is null or m.channel_id = i.channel_id)
   order by m.id
     for update of m`;

/**
 * Serializes a report's parking with the recording of its provider id: an advisory lock per bucket of provider ids
 * (taken in order, so two transactions never wait on each other's), held to commit. Whichever comes second sees the
 * other's commit: a report finds the id recorded, or the recording finds the report parked. Reports take it only
 * for the ids they did not find, so the usual report waits for nothing.
 */
const LOCK_REPORTED = `select pg_advisory_xact_lock(2039, k) from (select distinct hashtext(i.provider || ':' ||
  i.provider_message_id) & 255 as k from jsonb_to_recordset(?::jsonb) as ${REPORT_ROW} order by k) as s`;
const LOCK_RECORDED = `select pg_advisory_xact_lock(2039, k) from (select distinct hashtext(m.provider || ':' ||
  m.provider_message_id) & 255 as k from messages m where m.id = any(?::uuid[]) order by k) as s`;

/** Whether an outbound message carries the report's provider id (in any channel: PARK keeps the others). */
const RECORDED = `exists (select 1 from messages m where m.provider_message_id = i.provider_message_id
  and m.provider = i.provider and m.direction = 'outbound')`;
/** The positions of the reports no outbound message carries the provider's id of yet. */
const UNRECORDED = `select i.at from jsonb_to_recordset(?::jsonb) as ${REPORT_ROW} where not ${RECORDED}`;

/** The reports no outbound message carries the provider's id of yet: parked until one does. */
const PARK = `insert into message_status_reports_parked (id, provider, provider_message_id, channel_id, status,
    error_code, error_title, event_at, parked_at)
  select gen_random_uuid(), i.provider, i.provider_message_id, i.channel_id, i.status, i.error_code, i.error_title,
    coalesce(i.event_at, clock_timestamp()), clock_timestamp()
    from jsonb_to_recordset(?::jsonb) as ${REPORT_ROW}
   where not ${RECORDED}
   order by i.at`;

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

const rowOf = (update: StatusUpdate, at: number) => ({
  at,
  provider: update.provider,
  provider_message_id: update.providerMessageId,
  channel_id: update.channelId ?? null,
  status: update.status,
  error_code: update.status === 'failed' ? (update.error?.code ?? null) : null,
  error_title: update.status === 'failed' ? (update.error?.title ?? null) : null,
  event_at: update.timestamp ?? null,
});

/** Applies the reports to the messages that carry their provider ids, through the status writer. */
async function applyReports(tx: EntityManager, updates: readonly StatusUpdate[]): Promise<StatusChange[]> {
  const changed: StatusChange[] = [];
  for (const round of rounds(updates)) {
    const rows = JSON.stringify(round.map(({ update, at }) => rowOf(update, at)));
    changed.push(...(await writeStatuses(tx, { sql: REPORTED, params: [rows] })));
  }
  return changed;
}

/**
 * The status sink's work for many reports at once (the sandbox's bursts, a webhook's batch): applies each to its
 * outbound message through the status writer, in the order given (which queues `message.status.updated` for each
 * real change). A report whose provider id no message carries yet (the pipeline has not committed the provider's
 * answer) is parked, and applied when that answer is recorded (applyParkedReports). Returns the changes (repeated,
 * late, backward and parked reports change nothing now).
 */
export async function applyStatusUpdates(
  { em: tx }: ServiceContext,
  updates: readonly StatusUpdate[],
): Promise<StatusChange[]> {
  if (updates.length === 0) return [];
  const changed = await applyReports(tx, updates);
  // Each change is one report's: when every report changed its message, every provider id was found.
  if (changed.length === updates.length) return changed;
  const unknown = await tx.execute<{ at: number }[]>(UNRECORDED, [JSON.stringify(updates.map(rowOf))]);
  if (unknown.length === 0) return changed;
  const early = unknown.map(({ at }) => updates[at]!);
  const rows = JSON.stringify(early.map(rowOf));
  await tx.execute(LOCK_REPORTED, [rows]);
  // Locked: an id recorded meanwhile is seen now, and its report applied; the others wait in the park.
  changed.push(...(await applyReports(tx, early)));
  await tx.execute(PARK, [rows], 'run');
  return changed;
}

/** One report (a WhatsApp webhook's status): the change it made, or undefined when it changed nothing. */
export async function applyStatusUpdate(ctx: ServiceContext, update: StatusUpdate): Promise<StatusChange | undefined> {
  return (await applyStatusUpdates(ctx, [update]))[0];
}

interface ParkedRow {
  provider: string;
  provider_message_id: string;
  channel_id: string | null;
  status: StatusUpdate['status'];
  error_code: number | null;
  error_title: string | null;
  event_at: Date;
}

/**
 * The reports parked for messages whose provider id the caller's transaction just recorded (`ids`: the messages):
 * taken out of the park and applied, in the order they arrived, in that transaction. Returns the changes.
 */
export async function applyParkedReports(tx: EntityManager, ids: readonly string[]): Promise<StatusChange[]> {
  if (ids.length === 0) return [];
  const idList = `{${ids.join(',')}}`;
  await tx.execute(LOCK_RECORDED, [idList]);
  const parked = await tx.execute<ParkedRow[]>(
    `delete from message_status_reports_parked p using messages m
      where m.id = any(?::uuid[]) and p.provider = m.provider and p.provider_message_id = m.provider_message_id
      returning p.provider, p.provider_message_id, p.channel_id, p.status, p.error_code, p.error_title, p.event_at,
        p.parked_at`,
    [idList],
  );
  const inOrder = parked.sort((a, b) => new Date(a.event_at).getTime() - new Date(b.event_at).getTime());
  return applyStatusUpdates(
    { em: tx },
    inOrder.map((row) => ({
      provider: row.provider,
      providerMessageId: row.provider_message_id,
      status: row.status,
      ...(row.channel_id && { channelId: row.channel_id }),
      ...(row.error_code !== null && { error: { code: row.error_code, title: row.error_title ?? '' } }),
      timestamp: new Date(row.event_at).toISOString(),
    })),
  );
}
