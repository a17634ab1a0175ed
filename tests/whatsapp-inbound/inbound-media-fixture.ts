import { createHash, randomBytes } from 'node:crypto';
import type { StandInMedia } from '../helpers/graph-stand-in.js';
import { isoAt, notification, postSigned, type ConnectedChannel } from './inbound-fixture.js';
import type { WhatsAppAccount } from '../whatsapp/whatsapp-fixtures.js';

/** Files the Graph stand-in keeps, by media id, as Meta keeps what customers send. */
export const FILES = {
  photo: { mimeType: 'image/jpeg', bytes: randomBytes(48_000) },
  invoice: { mimeType: 'application/pdf', bytes: randomBytes(3_000) },
} satisfies Record<string, StandInMedia>;
export const MEDIA_IDS = { photo: '880000000000001', invoice: '880000000000002' } as const;
export const sha256Of = (file: StandInMedia) => createHash('sha256').update(file.bytes).digest('base64');

/** The channel as the webhook helpers address it: the account's numbers and app secret, on the seeded channel. */
export const connected = (account: WhatsAppAccount, channelId: string): ConnectedChannel => ({
  channelId,
  phoneNumberId: account.phoneNumberId,
  wabaId: account.wabaId,
  appSecret: account.appSecret,
  verifyToken: account.verifyToken,
});

let serial = 0;
export const nextMsgid = () => `wamid.MEDIA${++serial}${randomBytes(6).toString('hex')}`;

/** One customer message in Meta's shape: `type` and its object (`{ image: {...} }`), at epoch offset `at`. */
export const metaMessage = (id: string, type: string, content: Record<string, unknown>, from = '15550007777') => ({
  from,
  id,
  timestamp: String(Date.parse(isoAt(0)) / 1000),
  type,
  ...content,
});

/** Meta's signed webhook POST carrying `messages` from Grace Hopper to the channel. */
export function postMessages(baseUrl: string, channel: ConnectedChannel, messages: { from: string }[]) {
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '15550100000', phone_number_id: channel.phoneNumberId },
    contacts: [...new Set(messages.map((m) => m.from))].map((wa_id) => ({ profile: { name: 'Grace Hopper' }, wa_id })),
    messages,
  };
  return postSigned(
    baseUrl,
    channel,
    notification({ wabaId: channel.wabaId, changes: [{ field: 'messages', value }] }),
  );
}
