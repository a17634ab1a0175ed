import {
  isoTimeParam,
  MESSAGE_DIRECTIONS,
  MESSAGE_STATUSES,
  MESSAGE_TYPES,
  messageMediaSchema,
  phoneParam,
} from '@switchboard/contract';
import { z } from 'zod';
import { SeedError, seededId, seedRef, seedSection } from '../../kit/seed.js';
import { Channel } from '../channels/index.js';
import { Contact, findOrCreateContactByPhone } from '../contacts/index.js';
import { Message } from './message.entity.js';

/**
 * Messages of a channel, outbound (`to`) or a customer's (`direction: "inbound"`, `from`). Each belongs to the
 * contact with that phone, created (named by the phone) when the file has none.
 */
export const messagesSeed = seedSection({
  key: 'messages',
  item: z
    .object({
      ref: seedRef.optional(),
      channel: seedRef,
      msgid: z.string().min(1).max(200),
      direction: z.enum(MESSAGE_DIRECTIONS).default('outbound'),
      to: phoneParam().optional().describe('Outbound only: the recipient'),
      from: phoneParam().optional().describe('Inbound only: the customer'),
      text: z.string().min(1).max(4096).optional(),
      status: z.enum(MESSAGE_STATUSES).default('delivered'),
      type: z.enum(MESSAGE_TYPES).default('text'),
      createdAt: isoTimeParam().optional().describe('When it was sent; now unless given'),
      media: messageMediaSchema
        .optional()
        .describe(
          'Its file: a customer’s (`mediaId`, fetched with chat/media/get) or the link an outbound one was sent from',
        ),
    })
    .strict()
    .superRefine((item, ctx) => {
      const [needed, refused] = item.direction === 'inbound' ? (['from', 'to'] as const) : (['to', 'from'] as const);
      if (item[needed] === undefined)
        ctx.addIssue({ code: 'custom', path: [needed], message: `is required for ${item.direction} messages` });
      if (item[refused] !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [refused],
          message: `is for ${item.direction === 'inbound' ? 'outbound' : 'inbound'} messages`,
        });
    }),
  async load(ctx, item, path) {
    const { em } = ctx;
    const channel = await ctx.ref('channels', Channel, item.channel, `${path}.channel`);
    if (await em.count(Message, { msgid: item.msgid }))
      throw new SeedError(`${path}.msgid`, `message "${item.msgid}" already exists`);
    // The contacts this file created so far must be rows before one is looked up by phone.
    await em.flush();
    const phone = (item.direction === 'inbound' ? item.from : item.to)!;
    const contact = await findOrCreateContactByPhone(em, channel.id, phone, phone);
    const message = em.create(Message, {
      channel,
      msgid: item.msgid,
      providerMessageId: item.direction === 'outbound' ? item.msgid : null,
      direction: item.direction,
      type: item.type,
      status: item.status,
      to: item.to ?? null,
      from: item.from ?? null,
      contact: em.getReference(Contact, contact.id),
      body: item.text ?? null,
      media: item.media ?? null,
      ...(item.createdAt !== undefined && { createdAt: new Date(item.createdAt) }),
    });
    return seededId(message);
  },
});
