import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { AppError } from '../../kit/errors.js';
import { resealColumns, type RekeyCount } from '../../kit/secret-columns.js';
import { SecretDecryptError, type SecretBox } from '../../kit/secrets.js';
import { WhatsAppConnection } from './whatsapp-connection.entity.js';
import { secretContext, type ChannelSecretName, type WhatsApp } from './whatsapp.js';

const metaId = (what: string) =>
  z
    .string({ required_error: 'is required' })
    .trim()
    .regex(/^\d{1,64}$/, `must be the ${what} as Meta shows it: digits only`);
const secret = (max: number) =>
  z
    .string({ required_error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

/**
 * What an operator pastes from Meta's app dashboard to connect a channel; one schema for the seed file, the CLI
 * and the portal form. Problems name the field, never its value.
 */
export const whatsAppCredentialsSchema = z.object({
  phoneNumberId: metaId('phone number ID'),
  wabaId: metaId('WhatsApp Business Account ID'),
  accessToken: secret(4096),
  appSecret: secret(256),
  verifyToken: secret(256),
  /**
   * The Meta app's ID (App settings → Basic), optional: Meta's resumable upload API runs on the app, and a template's
   * media header needs a sample uploaded with it. An empty form field counts as not given.
   */
  appId: z.preprocess((value) => (value === '' ? undefined : value), metaId('app ID').optional()),
});
export type WhatsAppCredentials = z.infer<typeof whatsAppCredentialsSchema>;

/** A channel's credentials, decrypted for one Graph call or one signature check. */
export type StoredCredentials = WhatsAppCredentials & { channelId: string };

export function requireSecrets(whatsApp: WhatsApp): SecretBox {
  if (!whatsApp.secrets) {
    throw new AppError(
      503,
      'service_unavailable',
      'WhatsApp Cloud API channels need SECRETS_KEY (32 random bytes, base64) to store their secrets; it is not set.',
    );
  }
  return whatsApp.secrets;
}

/** Opens one stored secret; a value the configured key cannot open is a 503 an operator can act on. */
export function openSecret(whatsApp: WhatsApp, channelId: string, name: ChannelSecretName, ciphertext: string): string {
  try {
    return requireSecrets(whatsApp).decrypt(ciphertext, secretContext(channelId, name));
  } catch (error) {
    if (!(error instanceof SecretDecryptError)) throw error;
    throw new AppError(
      503,
      'service_unavailable',
      `This channel's stored WhatsApp credentials cannot be opened (${error.problem}): connect the channel again.`,
    );
  }
}

const CIPHERTEXT_COLUMNS = {
  accessToken: 'accessTokenCiphertext',
  appSecret: 'appSecretCiphertext',
  verifyToken: 'verifyTokenCiphertext',
} as const;

/**
 * One stored secret of the channel, opened (and no other: the receiver of Meta's webhooks needs only the verify
 * token or the app secret), or undefined when the channel is not connected to the WhatsApp Cloud API.
 */
export async function loadSecret(
  em: EntityManager,
  whatsApp: WhatsApp,
  channelId: string,
  name: ChannelSecretName,
): Promise<string | undefined> {
  const column = CIPHERTEXT_COLUMNS[name];
  const connection = await em.findOne(WhatsAppConnection, { channel: channelId }, { fields: [column] });
  return connection ? openSecret(whatsApp, channelId, name, connection[column]) : undefined;
}

/** The channel's decrypted credentials, or undefined when it is not connected to the WhatsApp Cloud API. */
async function loadCredentials(
  em: EntityManager,
  whatsApp: WhatsApp,
  channelId: string,
): Promise<StoredCredentials | undefined> {
  const connection = await em.findOne(
    WhatsAppConnection,
    { channel: channelId },
    {
      fields: [
        'phoneNumberId',
        'wabaId',
        'appId',
        'accessTokenCiphertext',
        'appSecretCiphertext',
        'verifyTokenCiphertext',
      ],
    },
  );
  if (!connection) return undefined;
  return {
    channelId,
    phoneNumberId: connection.phoneNumberId,
    wabaId: connection.wabaId,
    ...(connection.appId ? { appId: connection.appId } : {}),
    accessToken: openSecret(whatsApp, channelId, 'accessToken', connection.accessTokenCiphertext),
    appSecret: openSecret(whatsApp, channelId, 'appSecret', connection.appSecretCiphertext),
    verifyToken: openSecret(whatsApp, channelId, 'verifyToken', connection.verifyTokenCiphertext),
  };
}

/** loadCredentials for a channel that must be connected (its provider says so). */
export async function requireCredentials(
  em: EntityManager,
  whatsApp: WhatsApp,
  channelId: string,
): Promise<StoredCredentials> {
  const credentials = await loadCredentials(em, whatsApp, channelId);
  if (!credentials) {
    throw new AppError(
      503,
      'service_unavailable',
      'This channel uses the WhatsApp Cloud API but has no stored credentials: connect it again.',
    );
  }
  return credentials;
}

/** `pnpm cli secrets rekey`: every connected channel's three secrets under the current key. */
export const rekeyWhatsAppSecrets = (em: EntityManager, box: SecretBox): Promise<RekeyCount> =>
  resealColumns(
    em,
    box,
    WhatsAppConnection,
    Object.values(CIPHERTEXT_COLUMNS),
    (row, column) =>
      secretContext(
        row.channel.id,
        (Object.keys(CIPHERTEXT_COLUMNS) as ChannelSecretName[]).find((name) => CIPHERTEXT_COLUMNS[name] === column)!,
      ),
    ['channel'],
  );
