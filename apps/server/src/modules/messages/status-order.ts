import type { MESSAGE_STATUSES } from '@switchboard/contract';
import type { DeliveryStatus } from './messaging-provider.port.js';

type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * The one rule for a message's delivery status, whatever order the provider's reports arrive in (Meta retries and
 * reorders webhooks): never backwards along accepted < sent < delivered < read; `failed` ends a message that was
 * not yet delivered, and stays unless a later `delivered`/`read` proves the message did arrive after all.
 *
 * A `delivered` or `read` that arrives after a `failed` wins, because proof of delivery beats a failure report
 * (Meta can report a failed attempt and then deliver on retry). Seen as an order, accepted < sent < failed <
 * delivered < read and the rule keeps the highest, so applying a set of reports twice, or in any order, ends the same.
 * The status writer (status-writer.ts) moves a message only from a status statusesMovingTo lists for the new one.
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

/**
 * The send pipeline's own moves, before and instead of the provider's answer: a queued or scheduled send is handed
 * to its provider call (`sending`) or `cancelled`; a call ends `accepted` or `failed`, or back in `queued` when the
 * provider made no send.
 */
const PIPELINE_MOVES: Partial<Record<MessageStatus, readonly MessageStatus[]>> = {
  sending: ['queued', 'scheduled'],
  queued: ['sending'],
  accepted: ['sending'],
  failed: ['sending'],
  cancelled: ['queued', 'scheduled'],
};

const isDeliveryStatus = (status: MessageStatus): status is DeliveryStatus =>
  (ALL_STATUSES as readonly string[]).includes(status);

/** Every status a message may move to `incoming` from: the pipeline's moves, then the provider's rule above. */
export function statusesMovingTo(incoming: MessageStatus): MessageStatus[] {
  const provider = isDeliveryStatus(incoming) ? statusesReplacedBy(incoming) : [];
  return [...new Set([...(PIPELINE_MOVES[incoming] ?? []), ...provider])];
}
