import { randomBytes } from 'node:crypto';
import { loadConfig } from '@switchboard/server';
import { createSecretBox } from '../../apps/server/src/kit/secrets.js';
import { webhookSignature } from '../../apps/server/src/modules/whatsapp-inbound/webhook-signature.js';
import { connectWhatsAppChannel } from '../../apps/server/src/modules/whatsapp/whatsapp-connection.service.js';
import { createWhatsApp } from '../../apps/server/src/modules/whatsapp/whatsapp.js';
import { sql } from '../helpers/database.js';
import { startGraphStandIn } from '../helpers/graph-stand-in.js';
import type { ReceivedWebhook } from '../helpers/receivers.js';

/** The key the test server encrypts channel secrets with (SECRETS_KEY). */
export const SECRETS_KEY = randomBytes(32).toString('base64');

export interface ConnectedChannel {
  channelId: string;
  phoneNumberId: string;
  wabaId: string;
  appSecret: string;
  verifyToken: string;
}

/**
 * Connects `channelId` to the WhatsApp Cloud API the way operators do (connectWhatsAppChannel: one Graph check, then
 * the credentials stored encrypted with SECRETS_KEY), against a Graph stand-in that knows this number.
 */
export async function connectChannel(
  em: Parameters<typeof connectWhatsAppChannel>[0],
  channelId: string,
): Promise<ConnectedChannel> {
  const tag = () => String(100_000_000_000_000 + Math.floor(Math.random() * 1e14));
  const channel = {
    channelId,
    phoneNumberId: tag(),
    wabaId: tag(),
    appSecret: randomBytes(16).toString('hex'),
    verifyToken: `verify-${randomBytes(8).toString('hex')}`,
  };
  const accessToken = `EAAG${randomBytes(24).toString('base64url')}`;
  const graph = await startGraphStandIn({
    accessTokens: [accessToken],
    phoneNumbers: [
      {
        phoneNumberId: channel.phoneNumberId,
        wabaId: channel.wabaId,
        displayPhoneNumber: '+1 555-010-0000',
        verifiedName: 'Acme Support',
      },
    ],
    // Connecting pulls the business account's templates too.
    templates: { [channel.wabaId]: [] },
  });
  const whatsApp = createWhatsApp(
    loadConfig({ WHATSAPP_GRAPH_URL: graph.url, WHATSAPP_GRAPH_VERSION: graph.version, LOG_LEVEL: 'silent' }),
    createSecretBox(SECRETS_KEY),
  );
  try {
    await connectWhatsAppChannel(em, whatsApp, channelId, { ...channel, accessToken });
  } finally {
    await whatsApp.graph.close();
    await graph.close();
  }
  return channel;
}

/** POSTs `body` to the channel's webhook URL as Meta does: the exact bytes, signed with the app secret. */
export function postSigned(
  baseUrl: string,
  channel: ConnectedChannel,
  body: string | object,
  signature?: string | null,
) {
  const bytes = typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const signed = signature === undefined ? webhookSignature(bytes, channel.appSecret) : signature;
  if (signed !== null) headers['x-hub-signature-256'] = signed;
  return fetch(`${baseUrl}/webhooks/whatsapp/${channel.channelId}`, { method: 'POST', headers, body: bytes });
}

/**
 * Meta's timestamps in these payloads: an hour before the suite started, so every `at` offset the suites use stays
 * inside the window the server believes (30 days back, 5 minutes ahead).
 */
const EPOCH_BASE = Math.floor(Date.now() / 1000) - 3600;
const epoch = (offsetSeconds = 0) => String(EPOCH_BASE + offsetSeconds);

export interface MetaStatus {
  id: string;
  status: string;
  at?: number;
  errors?: { code: number; title: string }[];
}

export interface MetaMessage {
  id: string;
  from: string;
  name?: string;
  type?: string;
  text?: string;
  at?: number;
}

/** One `messages` change of Meta's webhook for a phone number, with statuses and/or customer messages. */
export function messagesChange(
  phoneNumberId: string,
  { statuses = [], messages = [] }: { statuses?: MetaStatus[]; messages?: MetaMessage[] },
) {
  const value: Record<string, unknown> = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '15550100000', phone_number_id: phoneNumberId },
  };
  if (statuses.length > 0) {
    value.statuses = statuses.map(({ id, status, at = 0, errors }) => ({
      id,
      status,
      timestamp: epoch(at),
      recipient_id: '15550001234',
      ...(errors ? { errors } : {}),
    }));
  }
  if (messages.length > 0) {
    value.contacts = messages.filter((m) => m.name).map((m) => ({ profile: { name: m.name }, wa_id: m.from }));
    value.messages = messages.map(({ id, from, type = 'text', text, at = 0 }) => ({
      id,
      from,
      timestamp: epoch(at),
      type,
      ...(text === undefined ? {} : { text: { body: text } }),
    }));
  }
  return { field: 'messages', value };
}

/** Meta's notification envelope around some entries of changes. */
export const notification = (...entries: { wabaId: string; changes: unknown[] }[]) => ({
  object: 'whatsapp_business_account',
  entry: entries.map(({ wabaId, changes }) => ({ id: wabaId, changes })),
});

/** The ISO form of `epoch(at)`: what events and replies carry for Meta's timestamps. */
export const isoAt = (at = 0) => new Date((EPOCH_BASE + at) * 1000).toISOString();

/** An outbound message of the WhatsApp channel as the provider's send records it (that path is built elsewhere). */
export async function insertOutbound(
  databaseUrl: string,
  channelId: string,
  msgid = `wamid.${randomBytes(12).toString('base64url')}`,
  status = 'accepted',
) {
  await sql(
    databaseUrl,
    `insert into messages (channel_id, msgid, provider_message_id, direction, type, status, "to", template_name, ` +
      `language, provider) values ($1, $2, $2, 'outbound', 'template', $3, '15550001234', 'order_update', 'en_US', ` +
      `'whatsapp_cloud')`,
    [channelId, msgid, status],
  );
  return msgid;
}

export const storedDeliveries = (databaseUrl: string, channelId: string) =>
  sql(
    databaseUrl,
    'select id, status, attempts, last_error, applied_at from whatsapp_inbound_deliveries where channel_id = $1 ' +
      'order by created_at',
    [channelId],
  );

/** Verified events of one type, as a receiver got them. */
export function eventsOf<T = Record<string, unknown>>(
  received: ReceivedWebhook[],
  type: string,
  where: (data: T) => boolean = () => true,
) {
  return received
    .map((hit) => hit.verified as unknown as { type: string; timestamp: string; data: T } | null)
    .filter(
      (event): event is { type: string; timestamp: string; data: T } =>
        event !== null && event.type === type && where(event.data),
    );
}
