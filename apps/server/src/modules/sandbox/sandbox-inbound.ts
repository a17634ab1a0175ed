import { randomBytes } from 'node:crypto';
import type { ServiceContext } from '../../kit/context.js';
import { ValidationError } from '../../kit/errors.js';
import type { JobQueue } from '../../kit/jobs.js';
import { Channel } from '../channels/index.js';
import { findOrCreateContactByPhone } from '../contacts/index.js';
import { recordCustomerMessage } from '../conversations/index.js';

const providerId = () => `wamid.${randomBytes(18).toString('base64url')}`;

export interface SandboxInbound {
  channelId: string;
  /** The customer's phone digits. */
  from: string;
  /** A text message's text, or an image's caption. */
  text?: string;
  /** A photo (the sandbox's placeholder image, see sandbox-media.ts) rather than a text; `text` is its caption. */
  image?: boolean;
  /** A provider-format id (`wamid.` + random) unless given; the same msgid again records nothing. */
  msgid?: string;
  /** When the customer sent it; now unless given. */
  sentAt?: Date;
}

/**
 * A customer's text message (or photo) on a sandbox channel, recorded exactly as a WhatsApp inbound message is (the
 * whatsapp module's inbound job): contact found or created (named by the phone), message recorded, conversation
 * updated by trigger, `message.received` queued, all in one transaction. Returns the msgid and whether it was new.
 */
export async function receiveSandboxMessage(
  { em }: ServiceContext,
  jobs: JobQueue,
  inbound: SandboxInbound,
): Promise<{ msgid: string; recorded: boolean }> {
  const msgid = inbound.msgid ?? providerId();
  const timestamp = (inbound.sentAt ?? new Date()).toISOString();
  return em.transactional(async (tx) => {
    const channel = await tx.findOne(Channel, inbound.channelId, { fields: ['provider'] });
    if (channel?.provider !== 'sandbox') throw ValidationError.field('channelId', 'is not a sandbox channel');
    const contact = await findOrCreateContactByPhone(tx, inbound.channelId, inbound.from, inbound.from, jobs);
    const recorded = await recordCustomerMessage({ em: tx }, jobs, 'sandbox', {
      msgid,
      channelId: inbound.channelId,
      contact,
      type: inbound.image ? 'image' : 'text',
      text: inbound.text ?? null,
      media: inbound.image ? { mediaId: providerId(), mimeType: 'image/png', caption: inbound.text } : null,
      timestamp,
    });
    return { msgid, recorded };
  });
}
