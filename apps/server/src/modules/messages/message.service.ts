import { messageError, type MessageMedia, type MessageReason, type MessageStatus } from '@switchboard/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { timeOrderedUuid } from '../../kit/columns.js';
import { ForbiddenError } from '../../kit/errors.js';
import type { CallerContext, ServiceContext } from '../../kit/context.js';
import type { JobQueue } from '../../kit/jobs.js';
import { queueTrigger } from '../../kit/triggers.js';
import { authorizedChannelIds } from '../channels/index.js';
import { Message } from './message.entity.js';
import { MESSAGE_RECEIVED, queueMessageEvent, type MessageReceivedData } from './message-events.js';
import { applyOptOutWords } from './opt-out.js';

/** Same reply for "not yours" and "does not exist", so msgids cannot be probed across tenants. */
const NOT_ACCESSIBLE = 'No message with this msgid in the channels this key may use.';

/**
 * A message of a channel the caller may use, by msgid (what a lookup by msgid needs: its status, conversation and
 * file); 403 otherwise, whether it exists elsewhere or not.
 */
export async function findAccessibleMessage(ctx: CallerContext, msgid: string) {
  const channelIds = authorizedChannelIds(ctx);
  if (channelIds.length === 0) throw new ForbiddenError(NOT_ACCESSIBLE);
  const message = await ctx.em.findOne(
    Message,
    { msgid, channel: { $in: [...channelIds] } },
    {
      fields: [
        'msgid',
        'status',
        'direction',
        'type',
        'errorCode',
        'errorTitle',
        'reason',
        'channel',
        'contact',
        'createdAt',
        'provider',
        'media',
      ],
    },
  );
  if (!message) throw new ForbiddenError(NOT_ACCESSIBLE);
  return message;
}

export async function findMessageStatus(ctx: CallerContext, msgid: string): Promise<MessageStatus> {
  const message = await findAccessibleMessage(ctx, msgid);
  const { status, errorCode, errorTitle, reason } = message;
  const error =
    status === 'failed' && typeof errorCode === 'number' ? { error: messageError(errorCode, errorTitle ?? '') } : {};
  return {
    msgid: message.msgid,
    status,
    direction: message.direction,
    type: message.type,
    ...error,
    ...(reason ? { reason: reason as MessageReason } : {}),
  };
}

/**
 * Records a customer's message (status `delivered`: it reached the channel) and queues `message.received` (the
 * webhook event and the automations' trigger), in the caller's transaction. The msgid is unique: a message seen
 * before is not recorded again and sends no event. Returns whether it was new.
 */
export async function recordInboundMessage(
  { em: tx }: ServiceContext,
  jobs: JobQueue,
  provider: string,
  data: MessageReceivedData,
  /** What the row keeps of the file, when it is more than the event says (Meta's sha256). */
  stored: { media?: MessageMedia } = {},
): Promise<boolean> {
  const { affectedRows } = await tx
    .createQueryBuilder(Message)
    .insert({
      id: timeOrderedUuid(),
      channel: data.channelId,
      msgid: data.msgid,
      direction: 'inbound',
      type: data.type,
      status: 'delivered',
      from: data.contact.phone,
      contact: data.contact.id,
      body: data.text ?? null,
      media: stored.media ?? data.media ?? null,
      replyTo: data.replyTo,
      interactive: data.interactive,
      reaction: data.reaction,
      location: data.location,
      provider,
      // When the customer sent it: the 24-hour window runs from here, whenever the delivery arrives.
      createdAt: new Date(data.timestamp),
    })
    .onConflict('msgid')
    .ignore()
    .execute('run');
  if (affectedRows !== 1) return false;
  await applyOptOutWords(tx, { channelId: data.channelId, contactId: data.contact.id, text: data.text ?? null });
  await queueMessageEvent(tx, { type: MESSAGE_RECEIVED, timestamp: data.timestamp, data });
  await queueTrigger(tx, jobs, {
    event: 'message.received',
    eventId: data.msgid,
    channelId: data.channelId,
    contactId: data.contact.id,
    ...(data.text === null ? {} : { text: data.text }),
    ...(data.interactive && { reply: data.interactive.id }),
  });
  return true;
}

/**
 * The msgid of a message of the channel by the provider's id for it (a customer's reply or reaction names the
 * provider's): a message the pipeline sent has a msgid of its own. An id of no message here is kept as it is.
 */
export async function msgidOfProviderId(em: EntityManager, channelId: string, providerId: string): Promise<string> {
  const found = await em.findOne(
    Message,
    { channel: channelId, $or: [{ providerMessageId: providerId }, { msgid: providerId }] },
    { fields: ['msgid'] },
  );
  return found?.msgid ?? providerId;
}
