import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookEventOf, WebhookEventType } from '@switchboard/contract';
import type { JobQueue } from '../../kit/jobs.js';
import { Channel } from '../channels/index.js';
import { queueWebhookEvent } from '../webhooks/index.js';

/** A message's status changed (a provider's report moved it on; repeated, late and backward reports send nothing). */
export const MESSAGE_STATUS_UPDATED = 'message.status.updated' satisfies WebhookEventType;
/** A customer sent a message to one of the platform's channels. */
export const MESSAGE_RECEIVED = 'message.received' satisfies WebhookEventType;

/** The events' `data`, as the contract's WEBHOOK_EVENTS define them. */
export type MessageStatusUpdatedData = WebhookEventOf<typeof MESSAGE_STATUS_UPDATED>['data'];
export type MessageReceivedData = WebhookEventOf<typeof MESSAGE_RECEIVED>['data'];

type MessageEvent = WebhookEventOf<typeof MESSAGE_STATUS_UPDATED | typeof MESSAGE_RECEIVED>;

/**
 * Queues the event for the channel's platform inside the caller's transaction, so it exists exactly when the change
 * does. The body has ticket.closed's shape: `{type, timestamp, data}`.
 */
export async function queueMessageEvent(tx: EntityManager, jobs: JobQueue, event: MessageEvent): Promise<void> {
  const channel = await tx.findOneOrFail(Channel, event.data.channelId, { fields: ['platform'] });
  await queueWebhookEvent({ em: tx }, jobs, channel.platform.id, event);
}
