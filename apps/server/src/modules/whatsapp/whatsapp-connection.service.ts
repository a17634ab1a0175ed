import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, NotFoundError } from '../../kit/errors.js';
import type { SecretBox } from '../../kit/secrets.js';
import { Channel } from '../channels/channel.entity.js';
import { WhatsAppConnection } from './whatsapp-connection.entity.js';
import { inboundWebhookUrl, secretContext, type WhatsApp } from './whatsapp.js';

export const WHATSAPP_CLOUD = 'whatsapp_cloud';

/** What an operator pastes from Meta's app dashboard to connect a channel. */
export interface WhatsAppCredentials {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
}

/** A connected channel as replies, the CLI and the portal show it: never a secret, except where a caller asks. */
export interface WhatsAppChannel {
  channelId: string;
  provider: typeof WHATSAPP_CLOUD;
  phoneNumberId: string;
  wabaId: string;
  displayPhoneNumber: string;
  verifiedName: string;
  /** Paste into Meta's webhook settings ("Callback URL"). */
  webhookUrl: string;
}

/** A channel's credentials, decrypted for one Graph call or one signature check. */
export type StoredCredentials = WhatsAppCredentials & { channelId: string };

function requireSecrets(whatsApp: WhatsApp): SecretBox {
  if (!whatsApp.secrets) {
    throw new AppError(503, 'service_unavailable', 'WhatsApp Cloud API channels need SECRETS_KEY (32 random bytes, base64) to store their secrets; it is not set.');
  }
  return whatsApp.secrets;
}

/**
 * Checks the credentials with one Graph call (the phone number's display number and verified name), then stores
 * them encrypted and switches the channel to the WhatsApp Cloud API, in one transaction. A refusal (ProviderError:
 * 400/502/503) stores nothing. Connecting again rotates the credentials.
 */
export async function connectWhatsAppChannel(em: EntityManager, whatsApp: WhatsApp, channelId: string, credentials: WhatsAppCredentials): Promise<WhatsAppChannel> {
  const secrets = requireSecrets(whatsApp);
  const channel = await em.findOne(Channel, channelId, { fields: ['id'] });
  if (!channel) throw new NotFoundError('no_channel', `No channel ${channelId}.`);
  const verified = await whatsApp.graph.verifyPhoneNumber(credentials);
  const seal = (name: 'accessToken' | 'appSecret' | 'verifyToken') => secrets.encrypt(credentials[name], secretContext(channelId, name));
  const fields = {
    phoneNumberId: credentials.phoneNumberId,
    wabaId: credentials.wabaId,
    displayPhoneNumber: verified.displayPhoneNumber,
    verifiedName: verified.verifiedName,
    accessTokenCiphertext: seal('accessToken'),
    appSecretCiphertext: seal('appSecret'),
    verifyTokenCiphertext: seal('verifyToken'),
  };
  await em.transactional(async (tx) => {
    await tx.upsert(WhatsAppConnection, { channel: channelId, ...fields }, { onConflictFields: ['channel'], onConflictExcludeFields: ['id', 'createdAt'] });
    await tx.nativeUpdate(Channel, { id: channelId }, { provider: WHATSAPP_CLOUD });
  });
  return { channelId, provider: WHATSAPP_CLOUD, phoneNumberId: fields.phoneNumberId, wabaId: fields.wabaId, displayPhoneNumber: fields.displayPhoneNumber, verifiedName: fields.verifiedName, webhookUrl: inboundWebhookUrl(whatsApp, channelId) };
}

/** The channel's decrypted credentials, or undefined when it is not connected to the WhatsApp Cloud API. */
export async function loadCredentials(em: EntityManager, whatsApp: WhatsApp, channelId: string): Promise<StoredCredentials | undefined> {
  const connection = await em.findOne(WhatsAppConnection, { channel: channelId }, { fields: ['phoneNumberId', 'wabaId', 'accessTokenCiphertext', 'appSecretCiphertext', 'verifyTokenCiphertext'] });
  if (!connection) return undefined;
  const secrets = requireSecrets(whatsApp);
  const open = (ciphertext: string, name: 'accessToken' | 'appSecret' | 'verifyToken') => secrets.decrypt(ciphertext, secretContext(channelId, name));
  return {
    channelId,
    phoneNumberId: connection.phoneNumberId,
    wabaId: connection.wabaId,
    accessToken: open(connection.accessTokenCiphertext, 'accessToken'),
    appSecret: open(connection.appSecretCiphertext, 'appSecret'),
    verifyToken: open(connection.verifyTokenCiphertext, 'verifyToken'),
  };
}
