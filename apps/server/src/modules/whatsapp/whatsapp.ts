import type { EntityManager } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import { publicBaseUrl, type Config } from '../../config.js';
import { serviceKey } from '../../kit/services.js';
import type { SecretBox } from '../../kit/secrets.js';
import { destinationPolicy } from '../webhook-transport/index.js';
import { GraphClient, type SampleFetchOptions } from '../whatsapp-graph/index.js';
import { WhatsAppConnection } from './whatsapp-connection.entity.js';

/** What every WhatsApp Cloud API path needs: one Graph client (keep-alive pool) and the box channel secrets live in. */
export interface WhatsApp {
  graph: GraphClient;
  /** Undefined while SECRETS_KEY is unset: connecting a channel is then refused with a message saying so. */
  secrets: SecretBox | undefined;
  /** PUBLIC_URL (or the local address): where Meta is told to send a channel's webhooks. */
  publicUrl: string;
  /**
   * Channels' app secrets, opened, kept briefly by channel id: checking a signed POST from Meta then needs no query
   * and no decryption. A signature the kept secret does not verify is checked once more against the stored one
   * (the channel may have been connected again since).
   */
  appSecrets: LRUCache<string, string>;
  /** How a template media header's sample is fetched from the tenant's URL before it is uploaded to Meta. */
  samples: SampleFetchOptions;
}

/** How long an opened app secret is kept, and for how many channels at most. */
const APP_SECRET_CACHE = { ttl: 60_000, max: 10_000 } as const;

export const WHATSAPP = serviceKey<WhatsApp>('whatsapp');

/** A channel's `provider` once it is connected to the WhatsApp Cloud API (the messaging provider's name too). */
export const WHATSAPP_CLOUD = 'whatsapp_cloud';

export function createWhatsApp(config: Config, secrets: SecretBox | undefined): WhatsApp {
  return {
    graph: new GraphClient({
      graphUrl: config.WHATSAPP_GRAPH_URL,
      version: config.WHATSAPP_GRAPH_VERSION,
      timeoutMs: config.WHATSAPP_GRAPH_TIMEOUT_MS,
    }),
    secrets,
    publicUrl: publicBaseUrl(config),
    appSecrets: new LRUCache<string, string>(APP_SECRET_CACHE),
    // A sample's URL is the tenant's choice, as a webhook's is: the same request forgery policy.
    samples: { policy: destinationPolicy(config), timeoutMs: config.WHATSAPP_GRAPH_TIMEOUT_MS },
  };
}

/** The URL Meta calls for this channel: verification GET and signed event POSTs. */
export const inboundWebhookUrl = (whatsApp: Pick<WhatsApp, 'publicUrl'>, channelId: string) =>
  `${whatsApp.publicUrl}/webhooks/whatsapp/${channelId}`;

/**
 * Start-up check: channels already connected need SECRETS_KEY, and the key must be the one their secrets were
 * encrypted with. Fails with a message an operator can act on instead of failing later, per request.
 */
export async function checkStoredSecrets(em: EntityManager, whatsApp: WhatsApp): Promise<void> {
  const [connection] = await em.find(
    WhatsAppConnection,
    {},
    { fields: ['id', 'channel', 'verifyTokenCiphertext'], orderBy: { createdAt: 'asc' }, limit: 1 },
  );
  if (!connection) return;
  if (!whatsApp.secrets) {
    throw new Error(
      'SECRETS_KEY is not set, but WhatsApp Cloud API channels exist whose secrets it encrypts: set the SECRETS_KEY ' +
        'they were connected with.',
    );
  }
  try {
    whatsApp.secrets.decrypt(connection.verifyTokenCiphertext, secretContext(connection.channel.id, 'verifyToken'));
  } catch (error) {
    throw new Error(`SECRETS_KEY cannot open the stored WhatsApp channel secrets: ${(error as Error).message}`);
  }
}

export type ChannelSecretName = 'accessToken' | 'appSecret' | 'verifyToken';

/** Binds a ciphertext to its channel and column, so a value copied elsewhere fails to decrypt. */
export const secretContext = (channelId: string, name: ChannelSecretName) => `channel:${channelId}:${name}`;
