import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookEventOf, WebhookEventType } from '@switchboard/contract';
import { Channel } from '../channels/index.js';
import { emitEvents } from '../emitter/index.js';

/** A message's status changed (a provider's report moved it on; repeated, late and backward reports send nothing). */
export const MESSAGE_STATUS_UPDATED = 'message.status.updated' satisfies WebhookEventType;
/** A customer sent a message to one of the platform's channels. */
export const MESSAGE_RECEIVED = 'message.received' satisfies WebhookEventType;

/** The events' `data`, as the contract's WEBHOOK_EVENTS define them. */
export type MessageStatusUpdatedData = WebhookEventOf<typeof MESSAGE_STATUS_UPDATED>['data'];
export type MessageReceivedData = WebhookEventOf<typeof MESSAGE_RECEIVED>['data'];

type MessageEvent = WebhookEventOf<typeof MESSAGE_STATUS_UPDATED | typeof MESSAGE_RECEIVED>;

/** The platform of each channel the events name, as the caller knows them or else looked up in one query. */
async function platformsOf(tx: EntityManager, events: readonly MessageEvent[], known: ReadonlyMap<string, string>) {
  const unknown = [...new Set(events.map((event) => event.data.channelId))].filter((id) => !known.has(id));
  if (unknown.length === 0) return known;
  const channels = await tx.find(Channel, { id: { $in: unknown } }, { fields: ['platform'] });
  return new Map([...known, ...channels.map((channel) => [channel.id, channel.platform.id] as const)]);
}

/**
 * Queues the events for their channels' platforms inside the caller's transaction, so each exists exactly when its
 * change does: the platforms the caller knows (`known`, channel id → platform id), one lookup of the others, then
 * each platform's events together. The body has ticket.closed's shape: `{type, timestamp, data}`.
 */
export async function queueMessageEvents(
  tx: EntityManager,
  events: readonly MessageEvent[],
  known: ReadonlyMap<string, string> = new Map(),
): Promise<void> {
  if (events.length === 0) return;
  const platformOf = await platformsOf(tx, events, known);
  const byPlatform = new Map<string, MessageEvent[]>();
  for (const event of events) {
    const platformId = platformOf.get(event.data.channelId);
    if (!platformId) throw new Error(`no channel ${event.data.channelId} for its message event`);
    const ofPlatform = byPlatform.get(platformId) ?? [];
    ofPlatform.push(event);
    byPlatform.set(platformId, ofPlatform);
  }
  for (const [platformId, ofPlatform] of byPlatform) await emitEvents({ em: tx }, platformId, ofPlatform);
}

/** One event (see queueMessageEvents). */
export const queueMessageEvent = (tx: EntityManager, event: MessageEvent) => queueMessageEvents(tx, [event]);
