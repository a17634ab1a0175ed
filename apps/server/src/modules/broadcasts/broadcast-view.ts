import type { Broadcast as BroadcastView, BroadcastCounts } from '@switchboard/contract';
import type { Broadcast } from './broadcast.entity.js';

/** The counts as the row keeps them, each recipient in exactly one. */
export const countsOf = (row: Broadcast): BroadcastCounts => ({
  recipients: row.recipients,
  queued: row.queued,
  sent: row.sent,
  delivered: row.delivered,
  read: row.read,
  failed: row.failed,
  skipped: row.skipped,
});

const iso = (time: Date | null | undefined) => (time ? time.toISOString() : null);

/** A broadcast as the API shows it. */
export const toBroadcast = (row: Broadcast): BroadcastView => ({
  id: row.id,
  name: row.name,
  status: row.status,
  templateName: row.templateName,
  audience: row.audience,
  scheduledAt: iso(row.scheduledAt),
  ratePerSecond: row.ratePerSecond,
  counts: countsOf(row),
  createdAt: row.createdAt.toISOString(),
  startedAt: iso(row.startedAt),
  completedAt: iso(row.completedAt),
});
