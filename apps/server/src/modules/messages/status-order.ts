import type { DeliveryStatus } from './messaging-provider.port.js';

/**
 * The one rule for a message's delivery status, whatever order the provider's reports arrive in (Meta retries and
 * reorders webhooks): never backwards along accepted < sent < delivered < read; `failed` ends a message that was
 * not yet delivered, and stays unless a later `delivered`/`read` proves the message did arrive after all.
 *
 * A `delivered` or `read` that arrives after a `failed` wins, because proof of delivery beats a failure report
 * (Meta can report a failed attempt and then deliver on retry). Seen as an order, accepted < sent < failed <
 * delivered < read and the rule keeps the highest, so applying a set of reports twice, or in any order, ends the same.
 * The status sink (message.service.ts applyStatusUpdate) updates `where status in (statusesReplacedBy(incoming))`.
 */

const PROGRESS: Record<Exclude<DeliveryStatus, 'failed'>, number> = { accepted: 0, sent: 1, delivered: 2, read: 3 };
const DELIVERED = PROGRESS.delivered;

/** The status to keep after `incoming` is reported for a message now at `current` (`current` when nothing changes). */
export function nextStatus(current: DeliveryStatus, incoming: DeliveryStatus): DeliveryStatus {
  if (incoming === 'failed') return current === 'failed' || PROGRESS[current] >= DELIVERED ? current : 'failed';
  if (current === 'failed') return PROGRESS[incoming] >= DELIVERED ? incoming : current;
  return PROGRESS[incoming] > PROGRESS[current] ? incoming : current;
}

const ALL_STATUSES: DeliveryStatus[] = ['accepted', 'sent', 'delivered', 'read', 'failed'];

/** The current statuses an `incoming` report replaces: what a conditional `UPDATE … WHERE status IN (…)` needs. */
export function statusesReplacedBy(incoming: DeliveryStatus): DeliveryStatus[] {
  return ALL_STATUSES.filter((current) => current !== incoming && nextStatus(current, incoming) === incoming);
}
