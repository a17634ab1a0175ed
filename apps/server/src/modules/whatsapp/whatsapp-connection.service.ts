import type { QualityRating, TemplateStatus } from '@switchboard/contract';
import type { CallerContext, ServiceContext } from '../../kit/context.js';
import { NotFoundError } from '../../kit/errors.js';
import { Channel, resolveChannel } from '../channels/index.js';
import { Template } from '../templates/index.js';
import { syncedTemplates, type SyncedTemplate } from '../whatsapp-graph/index.js';
import type { TemplateSyncResult } from '../messages/index.js';
import { storeSyncedTemplates } from './template-sync.service.js';
import { WhatsAppConnection } from './whatsapp-connection.entity.js';
import { openSecret, requireSecrets, type WhatsAppCredentials } from './whatsapp-credentials.js';
import { inboundWebhookUrl, secretContext, WHATSAPP_CLOUD, type ChannelSecretName, type WhatsApp } from './whatsapp.js';

/** A connected channel as the CLI and the portal show it: never a secret. */
export interface WhatsAppChannel {
  channelId: string;
  provider: typeof WHATSAPP_CLOUD;
  phoneNumberId: string;
  wabaId: string;
  /** The Meta app's ID; null when not given (templates with a media header then cannot be created). */
  appId: string | null;
  displayPhoneNumber: string;
  verifiedName: string;
  /** Paste into Meta's webhook settings ("Callback URL"). */
  webhookUrl: string;
  /** What connecting pulled from the business account. */
  templates: TemplateSyncResult;
}

/** The columns of a connection row: what Graph reported and the sealed secrets. */
type ConnectionColumns = Pick<
  WhatsAppConnection,
  | 'phoneNumberId'
  | 'wabaId'
  | 'appId'
  | 'displayPhoneNumber'
  | 'verifiedName'
  | 'accessTokenCiphertext'
  | 'appSecretCiphertext'
  | 'verifyTokenCiphertext'
>;

/** What connecting stores, checked with Meta and ready to write: the connection row and the account's templates. */
export interface PreparedConnection {
  columns: ConnectionColumns;
  templates: SyncedTemplate[];
}

/**
 * Checks the credentials with Meta before anything is stored: the phone number (its display number and verified
 * name: token and phone number ID) and the business account's templates (WABA ID, and the token's template
 * permission; these become the channel's templates). A refusal is a ProviderError (400/502/503). Seals the secrets
 * for this channel.
 */
export async function prepareConnection(
  whatsApp: WhatsApp,
  channelId: string,
  credentials: WhatsAppCredentials,
): Promise<PreparedConnection> {
  const secrets = requireSecrets(whatsApp);
  const verified = await whatsApp.graph.verifyPhoneNumber(credentials);
  const listing = await whatsApp.graph.listTemplates(credentials);
  const seal = (name: ChannelSecretName) => secrets.encrypt(credentials[name], secretContext(channelId, name));
  return {
    columns: {
      phoneNumberId: credentials.phoneNumberId,
      wabaId: credentials.wabaId,
      appId: credentials.appId ?? null,
      displayPhoneNumber: verified.displayPhoneNumber.slice(0, 40),
      verifiedName: verified.verifiedName.slice(0, 200),
      accessTokenCiphertext: seal('accessToken'),
      appSecretCiphertext: seal('appSecret'),
      verifyTokenCiphertext: seal('verifyToken'),
    },
    templates: syncedTemplates(listing.templates),
  };
}

/**
 * Connects a channel to the WhatsApp Cloud API, or rotates its credentials: checks them with Meta
 * (prepareConnection), then in one transaction stores them encrypted, switches the channel's provider and replaces
 * its templates with the business account's. A refusal stores nothing.
 */
export async function connectWhatsAppChannel(
  { em }: ServiceContext,
  whatsApp: WhatsApp,
  channelId: string,
  credentials: WhatsAppCredentials,
): Promise<WhatsAppChannel> {
  const channel = await em.findOne(Channel, channelId, { fields: ['id'] });
  if (!channel) throw new NotFoundError('no_channel', `No channel ${channelId}.`);
  const { columns, templates } = await prepareConnection(whatsApp, channelId, credentials);
  const synced = await em.transactional(async (tx) => {
    await tx.upsert(
      WhatsAppConnection,
      { channel: channelId, ...columns },
      { onConflictFields: ['channel'], onConflictExcludeFields: ['id', 'createdAt'] },
    );
    await tx.nativeUpdate(Channel, { id: channelId }, { provider: WHATSAPP_CLOUD });
    return storeSyncedTemplates({ em: tx }, channelId, templates);
  });
  return {
    channelId,
    provider: WHATSAPP_CLOUD,
    phoneNumberId: columns.phoneNumberId,
    wabaId: columns.wabaId,
    appId: columns.appId ?? null,
    displayPhoneNumber: columns.displayPhoneNumber,
    verifiedName: columns.verifiedName,
    webhookUrl: inboundWebhookUrl(whatsApp, channelId),
    templates: synced,
  };
}

/**
 * connectWhatsAppChannel as a user, not an operator: the channel must be one the caller is authorized for, under
 * the rule of every workspace endpoint (resolveChannel: another channel, of this platform or another, is 403).
 */
export async function connectWhatsAppChannelAs(
  ctx: CallerContext,
  whatsApp: WhatsApp,
  channelId: string,
  credentials: WhatsAppCredentials,
): Promise<WhatsAppChannel> {
  const channel = await resolveChannel(ctx, channelId);
  return connectWhatsAppChannel(ctx, whatsApp, channel.id, credentials);
}

/** One channel of a platform as the portal's Channels page shows it. */
export interface ChannelConnection {
  channelId: string;
  name: string;
  phone: string;
  provider: string;
  /** Meta's quality rating of the number and its messaging tier (channels/list's). */
  quality: QualityRating;
  messagingLimit: string | null;
  /** Every template of the channel, by name then language, with its review state and quality. */
  templateList: { name: string; language: string; status: TemplateStatus; quality: QualityRating }[];
  /** Set when the channel is connected to the WhatsApp Cloud API. */
  whatsApp?: {
    phoneNumberId: string;
    wabaId: string;
    appId: string | null;
    displayPhoneNumber: string;
    verifiedName: string;
    webhookUrl: string;
    /**
     * What to paste into Meta beside the webhook URL; for `settings:api` users on that page only. Undefined when it
     * cannot be opened.
     */
    verifyToken: string | undefined;
    connectedAt: string;
    templates: TemplateSyncResult;
  };
}

/**
 * The channels the caller is authorized for (channels/list's: in its platform, oldest first), with their WhatsApp
 * Cloud API connection (never the token or app secret). `channelId` narrows it to that one channel, which must be
 * one of them (resolveChannel: 403 otherwise).
 */
export async function listChannelConnections(
  ctx: CallerContext,
  whatsApp: WhatsApp,
  channelId?: string,
): Promise<ChannelConnection[]> {
  const { em, caller } = ctx;
  const ids = channelId === undefined ? [...caller.channelIds] : [(await resolveChannel(ctx, channelId)).id];
  const channels = await em.find(
    Channel,
    { id: { $in: ids }, platform: caller.platformId },
    { fields: ['name', 'phone', 'provider', 'quality', 'messagingLimit'], orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  const connections = await em.find(
    WhatsAppConnection,
    { channel: { $in: channels.map((channel) => channel.id) } },
    {
      fields: [
        'channel',
        'phoneNumberId',
        'wabaId',
        'appId',
        'displayPhoneNumber',
        'verifiedName',
        'verifyTokenCiphertext',
        'updatedAt',
      ],
    },
  );
  const templates = await em.find(
    Template,
    { channel: { $in: channels.map((channel) => channel.id) } },
    { fields: ['channel', 'name', 'language', 'status', 'quality'], orderBy: { name: 'asc', language: 'asc' } },
  );
  const byChannel = new Map(connections.map((connection) => [connection.channel.id, connection]));
  return channels.map((channel) => {
    const connection = byChannel.get(channel.id);
    const own = templates.filter((template) => template.channel.id === channel.id);
    const base = channelBase(channel, own);
    if (!connection) return base;
    return {
      ...base,
      whatsApp: {
        phoneNumberId: connection.phoneNumberId,
        wabaId: connection.wabaId,
        appId: connection.appId ?? null,
        displayPhoneNumber: connection.displayPhoneNumber,
        verifiedName: connection.verifiedName,
        webhookUrl: inboundWebhookUrl(whatsApp, channel.id),
        verifyToken: readableSecret(whatsApp, channel.id, connection.verifyTokenCiphertext),
        connectedAt: connection.updatedAt.toISOString(),
        templates: { synced: own.length, approved: own.filter((template) => template.status === 'approved').length },
      },
    };
  });
}

/** What every channel shows, connected or not: its number's health and its templates. */
function channelBase(
  channel: Pick<Channel, 'id' | 'name' | 'phone' | 'provider' | 'quality' | 'messagingLimit'>,
  templates: Pick<Template, 'name' | 'language' | 'status' | 'quality'>[],
) {
  return {
    channelId: channel.id,
    name: channel.name,
    phone: channel.phone,
    provider: channel.provider,
    quality: channel.quality,
    messagingLimit: channel.messagingLimit ?? null,
    templateList: templates.map(({ name, language, status, quality }) => ({ name, language, status, quality })),
  };
}

function readableSecret(whatsApp: WhatsApp, channelId: string, ciphertext: string): string | undefined {
  try {
    return openSecret(whatsApp, channelId, 'verifyToken', ciphertext);
  } catch {
    return undefined;
  }
}
