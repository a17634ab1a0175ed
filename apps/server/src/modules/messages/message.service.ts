import type { EntityManager } from '@mikro-orm/postgresql';
import type { MessageStatus } from '@switchboard/contract';
import { ForbiddenError } from '../../kit/errors.js';
import type { ServiceContext } from '../../kit/context.js';
import { authorizedChannelIds } from '../channels/channel.scope.js';
import { Message } from './message.entity.js';
import type { DeliveryStatus, OutboundTemplateMessage, StatusUpdate } from './provider/messaging-provider.js';

/** Which statuses each status may follow: a late or repeated report never moves a message backwards. */
const MAY_FOLLOW: Record<DeliveryStatus, DeliveryStatus[]> = {
  accepted: [],
  sent: ['accepted'],
  delivered: ['accepted', 'sent'],
  read: ['accepted', 'sent', 'delivered'],
  failed: ['accepted', 'sent'],
};

/** Same reply for "not yours" and "does not exist", so msgids cannot be probed across tenants. */
const NOT_ACCESSIBLE = 'No message with this msgid in the channels this key may use.';

export async function findMessageStatus(ctx: ServiceContext, msgid: string): Promise<MessageStatus> {
  const channelIds = authorizedChannelIds(ctx);
  if (channelIds.length === 0) throw new ForbiddenError(NOT_ACCESSIBLE);
  const message = await ctx.em.findOne(Message, { msgid, channel: { $in: [...channelIds] } }, { fields: ['msgid', 'status', 'direction', 'type'] });
  if (!message) throw new ForbiddenError(NOT_ACCESSIBLE);
  return { msgid: message.msgid, status: message.status, direction: message.direction, type: message.type };
}

/** The outbound record of a message its provider accepted, under the provider's id. */
export async function recordOutboundTemplate(
  em: EntityManager,
  message: OutboundTemplateMessage,
  provider: string,
  msgid: string,
): Promise<void> {
  await em.insert(Message, {
    channel: message.channelId,
    msgid,
    direction: 'outbound',
    type: 'template',
    status: 'accepted',
    to: message.to,
    templateName: message.templateName,
    language: message.language,
    variables: message.variables,
    provider,
  });
}

/** Applies a provider's status report with one conditional UPDATE; returns whether the status changed. */
export async function applyStatusUpdate(em: EntityManager, update: StatusUpdate): Promise<boolean> {
  const previous = MAY_FOLLOW[update.status];
  if (previous.length === 0) return false;
  const changed = await em.nativeUpdate(
    Message,
    { msgid: update.providerMessageId, provider: update.provider, status: { $in: previous } },
    { status: update.status, updatedAt: new Date() },
  );
  return changed > 0;
}
