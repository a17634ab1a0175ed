import {
  readableLocation,
  REACTION_MAX_AGE_DAYS,
  SESSION_WINDOW_HOURS,
  sessionSendParams,
  type SessionSendValues,
  type SessionSendParams,
  type SessionSendResult,
} from '@switchboard/contract';
import type { z } from 'zod';
import type { Caller, ServiceContext } from '../../kit/context.js';
import { BadRequestError, ForbiddenError, NotFoundError, ValidationError } from '../../kit/errors.js';
import type { Logger } from '../../logger.js';
import { Contact } from '../contacts/index.js';
import { Message } from '../messages/index.js';
import { queueSend } from './outbox.js';
import type { SendNow } from './send-now.js';
import type { SessionWindows } from './session-window.port.js';

const WINDOW_MS = SESSION_WINDOW_HOURS * 3_600_000;
const REACTION_MAX_AGE_MS = REACTION_MAX_AGE_DAYS * 86_400_000;

/**
 * What sending needs: the database, a logger, the session windows and, for an API call, the caller (a contactId of
 * a channel the caller may not use is then 403, as everywhere) and the hand-over at once; an automation sends
 * without either, its message queued in its run's transaction.
 */
export interface SendContext extends ServiceContext {
  log: Logger;
  windows: SessionWindows;
  caller?: Caller;
  sendNow?: SendNow;
}

/** chat/message/send's parameters for a channel already resolved (and authorized). */
export type SessionMessageInput = Omit<SessionSendParams, 'channelId'> & { channelId: string };

interface Recipient {
  contactId?: string;
  phone: string;
}

async function recipientOf(ctx: SendContext, channelId: string, to?: string, contactId?: string): Promise<Recipient> {
  if (contactId === undefined) {
    const contact = await ctx.em.findOne(Contact, { channel: channelId, phone: to! }, { fields: ['id'] });
    return { contactId: contact?.id, phone: to! };
  }
  const contact = await ctx.em.findOne(Contact, { id: contactId }, { fields: ['channel', 'phone'] });
  if (contact?.channel.id !== channelId) {
    // As assertInChannel: a contact of a channel the caller may not use is 403, as that channel would be.
    if (contact && ctx.caller && !ctx.caller.channelIds.includes(contact.channel.id)) {
      throw new ForbiddenError('You are not authorized for the channel of this resource.');
    }
    throw new NotFoundError('contact_not_found', `No contact ${contactId} in this channel.`);
  }
  return { contactId, phone: contact.phone };
}

/**
 * Meta's customer-service window: open while the recipient's newest inbound message on this channel (its time is
 * when the customer sent it) is under 24 hours old. Checked on every channel, so code tried on the sandbox behaves
 * the same on WhatsApp.
 */
async function assertWindowOpen(ctx: SendContext, channelId: string, recipient: Recipient, now: Date): Promise<void> {
  const lastInbound = recipient.contactId
    ? await ctx.windows.lastInboundAt(ctx.em, channelId, recipient.contactId)
    : null;
  const instead = 'send a template (chat/templates/send) instead.';
  if (!lastInbound) {
    throw new BadRequestError(
      'session_window_closed',
      `${recipient.phone} has never written to this channel, so no 24-hour window for session messages is open: ` +
        instead,
    );
  }
  const closesAt = new Date(lastInbound.getTime() + WINDOW_MS);
  if (closesAt <= now) {
    throw new BadRequestError(
      'session_window_closed',
      `The 24-hour window for session messages to ${recipient.phone} closed at ${closesAt.toISOString()}: ` + instead,
    );
  }
}

/** A message of the conversation by its msgid (`field` names the parameter in the 400 when there is none). */
async function conversationMessage(
  ctx: SendContext,
  channelId: string,
  recipient: Recipient,
  msgid: string,
  field: string,
) {
  const found = await ctx.em.findOne(
    Message,
    { msgid, channel: channelId, contact: recipient.contactId! },
    { fields: ['createdAt', 'status'] },
  );
  if (!found) throw ValidationError.field(field, 'is not the msgid of a message of this conversation');
  return found;
}

/**
 * A reaction is for a message of the conversation (either direction), sent already (the provider knows it) and at
 * most 30 days old (Meta's rule). The hand-over looks up its provider id, as the quoted message's.
 */
async function assertReactable(ctx: SendContext, channelId: string, recipient: Recipient, msgid: string, now: Date) {
  const target = await conversationMessage(ctx, channelId, recipient, msgid, 'reaction.msgid');
  if (['scheduled', 'queued', 'sending', 'cancelled'].includes(target.status))
    throw ValidationError.field('reaction.msgid', `is ${target.status}: only a message sent can be reacted to`);
  if (target.createdAt.getTime() < now.getTime() - REACTION_MAX_AGE_MS)
    throw ValidationError.field('reaction.msgid', `is older than ${REACTION_MAX_AGE_DAYS} days: WhatsApp refuses it`);
}

/** What the message shows as `text`: a text's body, a caption, or the readable form of the other types. */
function readableBody(send: SessionSendValues): string | null {
  if (send.location) return readableLocation(send.location);
  return send.text ?? send.caption ?? send.interactive?.body ?? (send.reaction?.emoji || null);
}

/** What the message's record keeps of the send: its readable text and what it carried. */
function recordedContent(send: SessionSendValues) {
  const media = send.mediaUrl
    ? {
        url: send.mediaUrl,
        ...(send.caption !== undefined && { caption: send.caption }),
        ...(send.filename !== undefined && { filename: send.filename }),
      }
    : null;
  return {
    type: send.type,
    body: readableBody(send),
    media,
    replyTo: send.replyTo ?? null,
    interactive: send.interactive ?? null,
    reaction: send.reaction ? { msgid: send.reaction.msgid, emoji: send.reaction.emoji || null } : null,
    location: send.location ?? null,
  };
}

/**
 * chat/message/send, and what an automation calls: the same checks either way (parameters, contact, window, quoted
 * message), then the message is queued for the send pipeline: in the caller's transaction for an automation's run
 * (sent after it commits), or committed at once and handed over in the request when the channel has budget now
 * (`ctx.sendNow`). Returns what the API replies.
 */
export async function sendSessionMessage(
  ctx: SendContext,
  input: SessionMessageInput,
  options: { automationId?: string } = {},
): Promise<SessionSendResult> {
  const parsed = sessionSendParams.safeParse(input);
  if (!parsed.success) {
    throw new ValidationError(
      parsed.error.issues.map((i: z.ZodIssue) => ({ field: i.path.join('.'), problem: i.message })),
    );
  }
  const send = parsed.data;
  const { channelId } = input;
  const now = new Date();
  const recipient = await recipientOf(ctx, channelId, send.to, send.contactId);
  await assertWindowOpen(ctx, channelId, recipient, now);
  if (send.replyTo !== undefined) await conversationMessage(ctx, channelId, recipient, send.replyTo, 'replyTo');
  if (send.reaction) await assertReactable(ctx, channelId, recipient, send.reaction.msgid, now);
  const columns = {
    channelId,
    to: recipient.phone,
    contactId: recipient.contactId ?? null,
    previewUrl: send.previewUrl,
    ...recordedContent(send),
    automationId: options.automationId ?? null,
  };
  const reply = { to: recipient.phone, type: send.type };
  if (!ctx.sendNow) return { msgid: (await queueSend(ctx.em, columns)).msgid, status: 'queued', ...reply };
  const { sendNow } = ctx;
  const sent = await sendNow.send((sendingBy) =>
    ctx.em.transactional(async (tx) => {
      const queued = await queueSend(tx, { ...columns, sendingBy });
      sendNow.requireProvider(queued.provider);
      return { ...queued, channelId };
    }),
  );
  return { ...sent, ...reply };
}
