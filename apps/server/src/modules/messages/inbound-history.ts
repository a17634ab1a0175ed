import type { ServiceContext } from '../../kit/context.js';
import { Message } from './message.entity.js';

/**
 * Whether the contact had written to the channel before: before the message `msgid` when given (one of its own),
 * else at all. Messages are ordered by when the customer sent them.
 */
export async function wroteBefore(
  { em }: ServiceContext,
  channelId: string,
  contactId: string,
  msgid?: string,
): Promise<boolean> {
  const message = msgid ? await em.findOne(Message, { msgid, channel: channelId }, { fields: ['createdAt'] }) : null;
  const earlier = await em.findOne(
    Message,
    {
      channel: channelId,
      contact: contactId,
      direction: 'inbound',
      ...(message ? { msgid: { $ne: msgid }, createdAt: { $lte: message.createdAt } } : {}),
    },
    { fields: ['id'] },
  );
  return earlier !== null;
}
