import type { WebhookEvent } from '@switchboard/contract';
import type { ServiceContext } from '../../kit/context.js';
import { WorkspaceEvent } from './workspace-event.entity.js';

/** The channel an event belongs to: its `data.channelId`, or none for a platform's own events (ticket.closed). */
function channelOf(event: WebhookEvent): string | null {
  const { channelId } = event.data as { channelId?: unknown };
  return typeof channelId === 'string' ? channelId : null;
}

/**
 * Records events for the live stream inside the caller's transaction, in one statement: they stream if, and only
 * if, that transaction commits (their cursors and the NOTIFY that wakes every instance come with the commit).
 */
export async function recordWorkspaceEvents(
  { em: tx }: ServiceContext,
  platformId: string,
  events: readonly WebhookEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await tx.insertMany(
    WorkspaceEvent,
    events.map((event) => ({ platform: platformId, channel: channelOf(event), type: event.type, payload: event })),
  );
}
