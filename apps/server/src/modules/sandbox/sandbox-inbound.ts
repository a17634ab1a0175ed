import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  locationSchema,
  reactionSendSchema,
  readableLocation,
  type InteractiveReply,
  type Location,
  type MessageType,
} from '@switchboard/contract';
import type { ServiceContext } from '../../kit/context.js';
import { ValidationError } from '../../kit/errors.js';
import type { JobQueue } from '../../kit/jobs.js';
import { Channel } from '../channels/index.js';
import { findOrCreateContactByPhone } from '../contacts/index.js';
import { recordCustomerMessage } from '../conversations/index.js';
import { Message } from '../messages/index.js';

const providerId = () => `wamid.${randomBytes(18).toString('base64url')}`;

/**
 * What the customer sends: exactly one of text, a photo, a tap (button or list row, by id), a reaction or a location.
 */
export interface SandboxInbound {
  channelId: string;
  /** The customer's phone digits. */
  from: string;
  /** A text message's text, or an image's caption. */
  text?: string;
  /** A photo (the sandbox's placeholder image, see sandbox-media.ts) rather than a text; `text` is its caption. */
  image?: boolean;
  /** The id of a reply button of the message `replyTo`, which the customer taps. */
  buttonReply?: string;
  /** The id of a row of the list message `replyTo`, which the customer picks. */
  listReply?: string;
  /** An emoji reacting to the message `replyTo` ('' removes the customer's reaction). */
  reaction?: string;
  location?: Location;
  /** The msgid of a message of the conversation: replied to (text), tapped (buttonReply, listReply), reacted to. */
  replyTo?: string;
  /** A provider-format id (`wamid.` + random) unless given; the same msgid again records nothing. */
  msgid?: string;
  /** When the customer sent it; now unless given. */
  sentAt?: Date;
}

const KINDS = ['text', 'buttonReply', 'listReply', 'reaction', 'location'] as const;

/** The message replied to, tapped or reacted to: one of this conversation. */
async function repliedMessage(tx: EntityManager, channelId: string, contactId: string, msgid: string) {
  const message = await tx.findOne(
    Message,
    { msgid, channel: channelId, contact: contactId },
    { fields: ['interactive', 'direction'] },
  );
  if (!message) throw ValidationError.field('replyTo', 'is not the msgid of a message of this conversation');
  return message;
}

/** The button or list row tapped, with its title, as the message sent it. */
function tapped(message: Pick<Message, 'interactive' | 'direction'>, inbound: SandboxInbound): InteractiveReply {
  const sent = message.direction === 'outbound' ? message.interactive : null;
  if (inbound.buttonReply !== undefined) {
    const buttons = sent?.kind === 'buttons' ? sent.buttons : [];
    const button = buttons.find((each) => each.id === inbound.buttonReply);
    if (!button) throw ValidationError.field('buttonReply', notOneOf('a reply button', buttons));
    return { kind: 'button_reply', id: button.id, title: button.title };
  }
  const rows = sent?.kind === 'list' ? sent.sections.flatMap((section) => section.rows) : [];
  const row = rows.find((each) => each.id === inbound.listReply);
  if (!row) throw ValidationError.field('listReply', notOneOf('a row of the list', rows));
  return { kind: 'list_reply', id: row.id, title: row.title, ...(row.description && { description: row.description }) };
}

const notOneOf = (what: string, choices: { id: string }[]) =>
  choices.length
    ? `is not the id of ${what} sent in replyTo (its ids: ${choices.map((choice) => choice.id).join(', ')})`
    : `needs replyTo to be a message with ${what}`;

/**
 * A customer's message on a sandbox channel, recorded exactly as a WhatsApp inbound message is (the whatsapp
 * module's inbound job): contact found or created (named by the phone), message recorded, conversation updated by
 * trigger, `message.received` queued, all in one transaction. A tap takes its title from the message tapped, as
 * WhatsApp reports it. Returns the msgid and whether it was new.
 */
export async function receiveSandboxMessage(
  { em }: ServiceContext,
  jobs: JobQueue,
  inbound: SandboxInbound,
): Promise<{ msgid: string; recorded: boolean }> {
  // A photo's text is its caption: the photo is the kind.
  const given = inbound.image
    ? (['image', ...KINDS.filter((kind) => kind !== 'text' && inbound[kind] !== undefined)] as const)
    : KINDS.filter((kind) => inbound[kind] !== undefined);
  if (given.length !== 1)
    throw ValidationError.field('text', `give exactly one of ${KINDS.join(', ')}, image (got ${given.length})`);
  const kind = given[0]!;
  if (kind !== 'text' && kind !== 'image' && kind !== 'location' && inbound.replyTo === undefined)
    throw ValidationError.field('replyTo', `is required with ${kind}`);
  const emoji = inbound.reaction === undefined ? undefined : reactionSendSchema.shape.emoji.safeParse(inbound.reaction);
  if (emoji?.success === false) throw ValidationError.field('reaction', emoji.error.issues[0]!.message);
  if (inbound.location && !locationSchema.safeParse(inbound.location).success)
    throw ValidationError.field('location', 'must have a latitude in -90..90 and a longitude in -180..180');
  const msgid = inbound.msgid ?? providerId();
  const timestamp = (inbound.sentAt ?? new Date()).toISOString();
  return em.transactional(async (tx) => {
    const channel = await tx.findOne(Channel, inbound.channelId, { fields: ['provider'] });
    if (channel?.provider !== 'sandbox') throw ValidationError.field('channelId', 'is not a sandbox channel');
    const contact = await findOrCreateContactByPhone(tx, inbound.channelId, inbound.from, inbound.from, jobs);
    const replied =
      inbound.replyTo === undefined ? null : await repliedMessage(tx, inbound.channelId, contact.id, inbound.replyTo);
    const interactive = replied && (kind === 'buttonReply' || kind === 'listReply') ? tapped(replied, inbound) : null;
    const reaction = kind === 'reaction' ? { msgid: inbound.replyTo!, emoji: inbound.reaction || null } : null;
    const location = inbound.location ?? null;
    const type: MessageType = kind === 'buttonReply' || kind === 'listReply' ? 'interactive' : kind;
    const text = inbound.text ?? interactive?.title ?? (location ? readableLocation(location) : reaction?.emoji);
    const recorded = await recordCustomerMessage({ em: tx }, jobs, 'sandbox', {
      msgid,
      channelId: inbound.channelId,
      contact,
      type,
      text: text ?? null,
      media: kind === 'image' ? { mediaId: providerId(), mimeType: 'image/png', caption: inbound.text } : null,
      replyTo: inbound.replyTo ?? null,
      interactive,
      reaction,
      location,
      timestamp,
    });
    return { msgid, recorded };
  });
}
