import type { WebhookEvent } from '@switchboard/contract';
import type { ServiceContext } from '../../kit/context.js';
import { recordWorkspaceEvents } from '../event-stream/index.js';
import { queueDeliveries } from '../webhooks/index.js';

/**
 * The one place every event is emitted, inside the caller's transaction: recorded for the live stream
 * (events/stream) and queued as a delivery to each endpoint of the platform that subscribed to it, so both exist
 * if, and only if, the change that caused them commits. The body is typed by the event's schema in the contract
 * (WEBHOOK_EVENTS), which the OpenAPI and the SDK publish.
 */
export async function emitEvents(
  ctx: ServiceContext,
  platformId: string,
  events: readonly WebhookEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await recordWorkspaceEvents(ctx, platformId, events);
  await queueDeliveries(ctx, platformId, events);
}

/** One event (see emitEvents). */
export const emitEvent = (ctx: ServiceContext, platformId: string, event: WebhookEvent) =>
  emitEvents(ctx, platformId, [event]);
