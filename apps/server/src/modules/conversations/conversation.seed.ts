import { CONVERSATION_STATUSES, phoneParam } from '@switchboard/contract';
import { z } from 'zod';
import { SeedError, seededId, seedRef, seedSection } from '../../kit/seed.js';
import { Channel } from '../channels/index.js';
import { Contact } from '../contacts/index.js';
import { User } from '../users/index.js';
import { Conversation } from './conversation.entity.js';

/**
 * A conversation's lifecycle in the seed file: the conversation exists once its messages are loaded (the messages
 * section comes first), and this sets its status and assignee, as chat/conversations/manage would.
 */
export const conversationsSeed = seedSection({
  key: 'conversations',
  item: z
    .object({
      ref: seedRef.optional(),
      channel: seedRef,
      phone: phoneParam(),
      status: z.enum(CONVERSATION_STATUSES).exclude(['snoozed']).default('open'),
      assignee: seedRef.optional().describe('A user of the seed file (or a user id)'),
    })
    .strict(),
  async load(ctx, item, path) {
    const channel = await ctx.ref('channels', Channel, item.channel, `${path}.channel`);
    // The messages section's rows may still be pending: the conversation row appears when they are written.
    await ctx.em.flush();
    const contact = await ctx.em.findOne(Contact, { channel, phone: item.phone }, { fields: ['id'] });
    const conversation = contact && (await ctx.em.findOne(Conversation, { channel, contact }));
    if (!conversation) throw new SeedError(`${path}.phone`, 'no messages with this contact in the channel');
    const assignee = item.assignee ? await ctx.ref('users', User, item.assignee, `${path}.assignee`) : null;
    ctx.em.assign(conversation, {
      status: item.status,
      assignee,
      resolvedAt: item.status === 'resolved' ? new Date() : null,
    });
    return seededId(conversation);
  },
});
