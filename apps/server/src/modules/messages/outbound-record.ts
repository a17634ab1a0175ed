import type { MessageMedia, MessageType } from '@switchboard/contract';
import type { RichContent } from './rich-content.js';
import type { ServiceContext } from '../../kit/context.js';
import { AfterEffectError } from '../../kit/errors.js';
import type { Logger } from '../../logger.js';
import { findOrCreateContactByPhone } from '../contacts/index.js';
import { Message } from './message.entity.js';

/** An outbound message its provider accepted, as it is recorded under the provider's id. */
export interface OutboundRecord extends RichContent {
  channelId: string;
  msgid: string;
  provider: string;
  to: string;
  type: MessageType;
  body?: string | null;
  media?: MessageMedia | null;
  replyTo?: string | null;
  templateName?: string;
  language?: string;
  variables?: string[];
  automationId?: string | null;
}

/**
 * Records an outbound message the provider accepted, in the conversation with the recipient's contact (created,
 * named by the phone, when the channel has none: every message belongs to a contact).
 *
 * The provider goes first because its id is the msgid; a send it refuses leaves no record behind. Nothing reaches
 * the provider before the request is fully validated, so every column comes from validated parameters and only the
 * database can refuse the insert now. If it does after the provider accepted (database gone in between, a provider
 * id we cannot store), the message is out and unrecorded: that is logged at error level with its msgid, and the
 * caller gets a 503 that names the msgid and says not to resend blindly. Like every 503 it carries Retry-After; the
 * reply is kept for its Idempotency-Key, so a retry under the same key gets it again instead of a second message.
 * No half-written row is left either way.
 */
export async function recordOutbound(ctx: ServiceContext & { log: Logger }, record: OutboundRecord): Promise<void> {
  const { channelId, msgid, provider, to, ...columns } = record;
  try {
    await ctx.em.transactional(async (tx) => {
      const contact = await findOrCreateContactByPhone(tx, channelId, to, to);
      await tx.insert(Message, {
        channel: channelId,
        msgid,
        providerMessageId: msgid,
        direction: 'outbound',
        status: 'accepted',
        to,
        contact: contact.id,
        provider,
        ...columns,
      });
    });
  } catch (error) {
    ctx.log.error(
      { err: error, msgid, provider, channelId, to, type: record.type, templateName: record.templateName },
      'SENT BUT NOT RECORDED: the provider accepted this message, storing it failed; reconcile by msgid',
    );
    throw new AfterEffectError(
      503,
      'service_unavailable',
      `The provider accepted the message (msgid ${msgid}) but it could not be recorded, so ` +
        `chat/message/status will not know it. It may still be delivered: do not resend it without checking.`,
    );
  }
}
