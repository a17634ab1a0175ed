import type { EntityManager } from '@mikro-orm/postgresql';
import type { Broadcast as BroadcastView, BroadcastCounts } from '@switchboard/contract';
import type { Broadcast } from './broadcast.entity.js';

type MovingCounts = Omit<BroadcastCounts, 'recipients'>;
const NO_STEPS: MovingCounts = { queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0 };

/**
 * How far each broadcast's counts moved since its start (the sums of its broadcast_count_deltas shards), by id: one
 * grouped statement for a page of broadcasts. Hand-written: the ORM's aggregate API would still need raw sums.
 */
async function countSteps(em: EntityManager, ids: readonly string[]): Promise<Map<string, MovingCounts>> {
  if (ids.length === 0) return new Map();
  const rows = await em.execute<(MovingCounts & { id: string })[]>(
    `select broadcast_id as id, sum(queued)::int as queued, sum(sent)::int as sent,
            sum(delivered)::int as delivered, sum(read)::int as read, sum(failed)::int as failed,
            sum(skipped)::int as skipped
       from broadcast_count_deltas where broadcast_id = any(?::uuid[]) group by broadcast_id`,
    [`{${ids.join(',')}}`],
  );
  return new Map(rows.map(({ id, ...steps }) => [id, steps]));
}

const iso = (time: Date | null | undefined) => (time ? time.toISOString() : null);

/** A broadcast as the API shows it, its counts those of its row moved on by `steps`. */
function toBroadcast(row: Broadcast, steps: MovingCounts): BroadcastView {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    pausedReason: row.pausedReason ?? null,
    templateName: row.templateName,
    audience: row.audience,
    scheduledAt: iso(row.scheduledAt),
    ratePerSecond: row.ratePerSecond,
    counts: {
      recipients: row.recipients,
      queued: row.queued + steps.queued,
      sent: row.sent + steps.sent,
      delivered: row.delivered + steps.delivered,
      read: row.read + steps.read,
      failed: row.failed + steps.failed,
      skipped: row.skipped + steps.skipped,
    },
    createdAt: row.createdAt.toISOString(),
    startedAt: iso(row.startedAt),
    completedAt: iso(row.completedAt),
  };
}

/** Broadcasts as the API shows them, with their counts as they stand. */
export async function broadcastViews(em: EntityManager, rows: readonly Broadcast[]): Promise<BroadcastView[]> {
  const steps = await countSteps(
    em,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toBroadcast(row, steps.get(row.id) ?? NO_STEPS));
}

/** One broadcast as the API shows it. */
export const broadcastView = async (em: EntityManager, row: Broadcast) => (await broadcastViews(em, [row]))[0]!;
