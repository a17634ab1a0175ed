import type { EntityManager } from '@mikro-orm/postgresql';
import type { MessageStatus } from '@switchboard/contract';
import { ForbiddenError } from '../../errors.js';
import type { RequestContext } from '../../http/context.js';
import { authorizedChannelIds } from '../channels/channel.scope.js';
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

export async function findMessageStatus(ctx: RequestContext, msgid: string): Promise<MessageStatus> {
  const channelIds = authorizedChannelIds(ctx);
  if (channelIds.length === 0) throw new ForbiddenError(NOT_ACCESSIBLE);
  const [row] = await ctx.em.execute<MessageStatus[]>(
    `select msgid, status, direction, type from messages where msgid = ? and channel_id in (?)`,
    [msgid, channelIds],
  );
  if (!row) throw new ForbiddenError(NOT_ACCESSIBLE);
  return row;
}

/** The outbound record of a message its provider accepted, under the provider's id. */
export async function recordOutboundTemplate(
  em: EntityManager,
  message: OutboundTemplateMessage,
  provider: string,
  msgid: string,
): Promise<void> {
  await em.execute(
    `insert into messages (channel_id, msgid, direction, type, status, "to", template_name, language, variables, provider)
     values (?, ?, 'outbound', 'template', 'accepted', ?, ?, ?, ?::jsonb, ?)`,
    [message.channelId, msgid, message.to, message.templateName, message.language, JSON.stringify(message.variables), provider],
  );
}

/** Applies a provider's status report with one conditional UPDATE; returns whether the status changed. */
export async function applyStatusUpdate(em: EntityManager, update: StatusUpdate): Promise<boolean> {
  const previous = MAY_FOLLOW[update.status];
  if (previous.length === 0) return false;
  const result = await em.execute<{ affectedRows: number }>(
    `update messages set status = ?, updated_at = now() where msgid = ? and provider = ? and status in (?)`,
    [update.status, update.providerMessageId, update.provider, previous],
    'run',
  );
  return result.affectedRows > 0;
}
