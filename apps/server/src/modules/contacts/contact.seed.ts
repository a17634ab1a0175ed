import { randomUUID } from 'node:crypto';
import { CONTACT_STATUSES, contactManageParams } from '@switchboard/contract';
import { z } from 'zod';
import { contractFields, SeedError, seededId, seedRef, seedSection } from '../../kit/seed.js';
import { queueTrigger } from '../../kit/triggers.js';
import { Channel } from '../channels/index.js';
import { Label, labelKey } from '../labels/index.js';
import { Contact } from './contact.entity.js';

/** A contact's fields as contacts/manage takes them (its name required here: every seeded contact is new). */
const { name, phone, email, customFields } = contractFields(contactManageParams);

export const contactsSeed = seedSection({
  key: 'contacts',
  item: z
    .object({
      ref: seedRef.optional(),
      channel: seedRef,
      name: name.unwrap(),
      phone,
      email,
      labels: z.array(z.string().min(1)).default([]),
      status: z.enum(CONTACT_STATUSES).default('active'),
      customFields: customFields.default({}),
    })
    .strict(),
  async load(ctx, item, path) {
    const { em } = ctx;
    const channel = await ctx.ref('channels', Channel, item.channel, `${path}.channel`);
    const created = ctx.created(Contact);
    const key = `${channel.id}:${item.phone}`;
    if (created.has(key)) throw new SeedError(`${path}.phone`, 'duplicate phone in this channel');
    const contact = em.create(Contact, {
      id: randomUUID(),
      channel,
      name: item.name,
      phone: item.phone,
      email: item.email ?? null,
      status: item.status,
      customFields: item.customFields,
    });
    created.set(key, contact);
    if (ctx.jobs) {
      const trigger = { eventId: contact.id, channelId: channel.id, contactId: contact.id };
      await queueTrigger(em, ctx.jobs, { event: 'contact.created', ...trigger });
    }
    const labels = ctx.created(Label);
    for (const [j, labelName] of item.labels.entries()) {
      const label =
        labels.get(labelKey(channel.id, labelName)) ?? (await em.findOne(Label, { channel, name: labelName }));
      if (!label) throw new SeedError(`${path}.labels[${j}]`, `no label "${labelName}" in this channel`);
      contact.labels.add(label);
    }
    return seededId(contact);
  },
});
