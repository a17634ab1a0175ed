import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../../kit/jobs.js';
import { queueTrigger } from '../../kit/triggers.js';
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
 * it has: the profile name a messaging app reports does not overwrite one set in the workspace. Given `jobs` (an
 * inbound message's path), a contact created here queues the `contact.created` trigger in the caller's transaction.
 */
export async function findOrCreateContactByPhone(
  tx: EntityManager,
  channelId: string,
  phone: string,
  name: string,
  jobs?: JobQueue,
): Promise<ContactIdentity> {
  const id = randomUUID();
  const { affectedRows } = await tx
    .createQueryBuilder(Contact)
    .insert({ id, channel: channelId, phone, name })
    .onConflict(['channel', 'phone'])
    .ignore()
    .execute('run');
  if (affectedRows === 1 && jobs)
    await queueTrigger(tx, jobs, { event: 'contact.created', eventId: id, channelId, contactId: id });
  const contact = await tx.findOneOrFail(Contact, { channel: channelId, phone }, { fields: ['name', 'phone'] });
  return { id: contact.id, name: contact.name, phone: contact.phone };
}
