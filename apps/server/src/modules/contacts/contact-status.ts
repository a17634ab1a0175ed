import type { EntityManager } from '@mikro-orm/postgresql';
import type { Contact, ContactStatus, WebhookEventOf } from '@switchboard/contract';
import { Channel } from '../channels/index.js';
import { emitEvent } from '../emitter/index.js';
import { Contact as ContactEntity } from './contact.entity.js';
import { readContact } from './contact.service.js';

const CONTACT_STATUS_CHANGED = 'contact.status.changed';

/** Queues `contact.status.changed` for the channel's platform in the caller's transaction (the change's own). */
export async function queueContactStatusChanged(
  tx: EntityManager,
  channelId: string,
  contact: Contact,
  previousStatus: ContactStatus,
): Promise<void> {
  const channel = await tx.findOneOrFail(Channel, channelId, { fields: ['platform'] });
  const event: WebhookEventOf<typeof CONTACT_STATUS_CHANGED> = {
    type: CONTACT_STATUS_CHANGED,
    timestamp: new Date().toISOString(),
    data: { channelId, contact, previousStatus },
  };
  await emitEvent({ em: tx }, channel.platform.id, event);
}

/**
 * Moves a contact from status `from` to `to` (an opt-out word: active → unsubscribed; START: back), and queues
 * `contact.status.changed`, in the caller's transaction; a contact in another status (blocked by the business)
 * stays as it is. Returns whether it changed.
 */
export async function changeContactStatus(
  tx: EntityManager,
  contact: { channelId: string; contactId: string },
  change: { from: ContactStatus; to: ContactStatus },
): Promise<boolean> {
  const { channelId, contactId } = contact;
  const changed = await tx.nativeUpdate(
    ContactEntity,
    { id: contactId, status: change.from },
    { status: change.to, updatedAt: new Date() },
  );
  if (changed !== 1) return false;
  const now = (await readContact({ em: tx }, channelId, 'id', contactId))!;
  await queueContactStatusChanged(tx, channelId, now, change.from);
  return true;
}
