import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Contact } from './contact.entity.js';

export interface ContactIdentity {
  id: string;
  name: string;
  phone: string;
}

/**
 * The channel's contact with this phone (digits), created with `name` when there is none. `on conflict do nothing`
 * on the (channel, phone) unique index: a concurrent first message from the same number meets the same row, and the
 * per-channel counter (triggers on `contacts`) counts only a row really inserted. An existing contact keeps the name
 * it has: the profile name a messaging app reports does not overwrite one set in the workspace.
 */
export async function findOrCreateContactByPhone(
  tx: EntityManager,
  channelId: string,
  phone: string,
  name: string,
): Promise<ContactIdentity> {
  await tx
    .createQueryBuilder(Contact)
    .insert({ id: randomUUID(), channel: channelId, phone, name })
    .onConflict(['channel', 'phone'])
    .ignore()
    .execute('run');
  const contact = await tx.findOneOrFail(Contact, { channel: channelId, phone }, { fields: ['name', 'phone'] });
  return { id: contact.id, name: contact.name, phone: contact.phone };
}
