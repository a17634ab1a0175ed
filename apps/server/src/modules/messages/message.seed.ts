import { MESSAGE_DIRECTIONS, MESSAGE_STATUSES, MESSAGE_TYPES, phoneParam } from '@switchboard/contract';
import { z } from 'zod';
import { SeedError, seededId, seedRef, seedSection } from '../../kit/seed.js';
import { Channel } from '../channels/index.js';
import { Message } from './message.entity.js';

export const messagesSeed = seedSection({
  key: 'messages',
  item: z
    .object({
      ref: seedRef.optional(),
      channel: seedRef,
      msgid: z.string().min(1).max(200),
      to: phoneParam(),
      status: z.enum(MESSAGE_STATUSES),
      direction: z.enum(MESSAGE_DIRECTIONS).default('outbound'),
      type: z.enum(MESSAGE_TYPES).default('text'),
    })
    .strict(),
  async load(ctx, item, path) {
    const { em } = ctx;
    const channel = await ctx.ref('channels', Channel, item.channel, `${path}.channel`);
    if (await em.count(Message, { msgid: item.msgid }))
      throw new SeedError(`${path}.msgid`, `message "${item.msgid}" already exists`);
    const message = em.create(Message, {
      channel,
      msgid: item.msgid,
      to: item.to,
      status: item.status,
      direction: item.direction,
      type: item.type,
    });
    return seededId(message);
  },
});
