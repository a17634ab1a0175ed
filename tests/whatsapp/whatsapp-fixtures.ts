import { randomBytes, randomInt } from 'node:crypto';
import type { SeedFile } from '@switchboard/server';
import type { StandInTemplate } from '../helpers/graph-stand-in.js';

/** The key the test servers encrypt channel secrets with (32 random bytes, base64, like `openssl rand -base64 32`). */
export const SECRETS_KEY = randomBytes(32).toString('base64');

/** One WhatsApp Business number as Meta's dashboard shows it, with secrets unique to it (so a grep finds them). */
export interface WhatsAppAccount {
  phoneNumberId: string;
  wabaId: string;
  displayPhoneNumber: string;
  verifiedName: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
}

const digits = (count: number) =>
  Array.from({ length: count }, (_, i) => (i === 0 ? randomInt(1, 10) : randomInt(0, 10))).join('');

export function whatsAppAccount(verifiedName = 'Acme Support'): WhatsAppAccount {
  return {
    phoneNumberId: digits(15),
    wabaId: digits(15),
    displayPhoneNumber: `+1 555-01${randomInt(10, 100)}-${randomInt(1000, 10000)}`,
    verifiedName,
    accessToken: `EAAG${randomBytes(48).toString('base64url')}`,
    appSecret: randomBytes(16).toString('hex'),
    verifyToken: `verify-${randomBytes(12).toString('base64url')}`,
  };
}

/** The credentials part, as the seed file, the CLI and the portal take it. */
export const credentialsOf = ({ phoneNumberId, wabaId, accessToken, appSecret, verifyToken }: WhatsAppAccount) => ({
  phoneNumberId,
  wabaId,
  accessToken,
  appSecret,
  verifyToken,
});

/** The values that must never appear in a reply, a log line or a plain column. */
export const secretsOf = (account: WhatsAppAccount) => [account.accessToken, account.appSecret, account.verifyToken];

export const template = (
  name: string,
  status = 'APPROVED',
  body = 'Hi {{1}}, order {{2}} shipped.',
  language = 'en_US',
  category = 'UTILITY',
): StandInTemplate => ({
  name,
  status,
  body,
  language,
  category,
});

/** The stand-in's account templates: approved, pending, appealed, rejected, paused, disabled, in two languages. */
export const META_TEMPLATES = (): StandInTemplate[] => [
  template('order_update'),
  template('order_update', 'APPROVED', 'Hola {{1}}, pedido {{2}} enviado.', 'es_ES'),
  template('welcome', 'APPROVED', 'Welcome to Acme!', 'en_US', 'MARKETING'),
  template('promo', 'PENDING', 'Sale: {{1}}', 'en_US', 'MARKETING'),
  template('appeal', 'IN_APPEAL', 'Appeal {{1}}'),
  template('rejected_one', 'REJECTED', 'No {{1}}'),
  template('paused_one', 'PAUSED', 'Paused {{1}}'),
  template('disabled_one', 'DISABLED', 'Disabled'),
];

export interface WhatsAppTenant {
  platformId: string;
  ownerKey: string;
  /** Connected to the WhatsApp Cloud API with `account`. */
  waChannelId: string;
  sandboxChannelId: string;
}

/** A platform whose owner (API key, `settings:api`, a portal password) has a WhatsApp channel and a sandbox one. */
export function whatsAppTenantSeed(account: WhatsAppAccount, password?: string): SeedFile {
  const tag = randomBytes(4).toString('hex');
  return {
    platforms: [{ ref: 'p', name: `WA ${tag}`, domain: `wa-${tag}.example.com` }],
    users: [
      {
        ref: 'owner',
        platform: 'p',
        email: `owner@wa-${tag}.example.com`,
        name: 'Wanda Owner',
        role: 'owner',
        platformAccess: true,
        permissions: ['settings:api'],
        apiKey: true,
        ...(password ? { password } : {}),
      },
    ],
    channels: [
      {
        ref: 'wa',
        platform: 'p',
        name: 'WhatsApp line',
        phone: '15550100000',
        users: ['owner'],
        provider: { type: 'whatsapp_cloud', ...credentialsOf(account) },
      },
      { ref: 'sandbox', platform: 'p', name: 'Sandbox line', phone: '15550109999', users: ['owner'] },
    ],
    templates: [
      {
        channel: 'sandbox',
        name: 'hello',
        category: 'UTILITY',
        language: 'en_US',
        status: 'approved',
        body: 'Hello {{1}}',
      },
    ],
  };
}

export function whatsAppTenantIds(ids: {
  platforms?: Record<string, string>;
  users?: Record<string, { apiKey?: string | null }>;
  channels?: Record<string, string>;
}): WhatsAppTenant {
  return {
    platformId: ids.platforms!.p!,
    ownerKey: ids.users!.owner!.apiKey!,
    waChannelId: ids.channels!.wa!,
    sandboxChannelId: ids.channels!.sandbox!,
  };
}
