import type { EntityManager } from '@mikro-orm/postgresql';
import type { MessageError, MessageStatus } from '@switchboard/contract';
import type { JobQueue } from '../../kit/jobs.js';
import { Channel } from '../channels/index.js';
import { queueWebhookEvent } from '../webhooks/index.js';

/** A message's status changed (a provider's report moved it on; repeated, late and backward reports send nothing). */
export const MESSAGE_STATUS_UPDATED = 'message.status.updated';
/** A customer sent a message to one of the platform's channels. */
export const MESSAGE_RECEIVED = 'message.received';

export interface MessageStatusUpdatedData {
  msgid: string;
  channelId: string;
  status: MessageStatus['status'];
  previousStatus: MessageStatus['status'];
  error?: MessageError;
  /** ISO 8601: when the provider says the change happened. */
  timestamp: string;
}

export interface MessageReceivedData {
  msgid: string;
  channelId: string;
  contact: { id: string; name: string; phone: string };
  type: MessageStatus['type'];
  /** The body of a text message. */
  text?: string;
  /** ISO 8601: when the customer sent it, as the provider reports. */
  timestamp: string;
}

type MessageEvent =
  | { type: typeof MESSAGE_STATUS_UPDATED; data: MessageStatusUpdatedData }
  | { type: typeof MESSAGE_RECEIVED; data: MessageReceivedData };

/**
 * Queues the event for the channel's platform inside the caller's transaction, so it exists exactly when the change
 * does. The body has ticket.closed's shape: `{type, timestamp, data}`.
 */
export async function queueMessageEvent(tx: EntityManager, jobs: JobQueue, event: MessageEvent): Promise<void> {
  const channel = await tx.findOneOrFail(Channel, event.data.channelId, { fields: ['platform'] });
  await queueWebhookEvent({ em: tx }, jobs, channel.platform.id, event.type, {
    type: event.type,
    timestamp: event.data.timestamp,
    data: event.data,
  });
}
