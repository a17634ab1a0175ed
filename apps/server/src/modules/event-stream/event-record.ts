import type { WebhookEvent } from '@switchboard/contract';
import type { ServiceContext } from '../../kit/context.js';
import { WorkspaceEvent } from './workspace-event.entity.js';

/** The channel an event belongs to: its `data.channelId`, or none for a platform's own events (ticket.closed). */
function channelOf(event: WebhookEvent): string | null {
  const { channelId } = event.data as { channelId?: unknown };
  return typeof channelId === 'string' ? channelId : null;
}

/**
 * Records the event for the live stream inside the caller's transaction: it streams if, and only if, that
 * transaction commits (its cursor and the NOTIFY that wakes every instance come with the commit).
 */
export async function recordWorkspaceEvent(
  { em: tx }: ServiceContext,
  platformId: string,
  event: WebhookEvent,
): Promise<void> {
  await tx.insert(WorkspaceEvent, {
    platform: platformId,
    channel: channelOf(event),
    type: event.type,
    payload: event,
  });
}
