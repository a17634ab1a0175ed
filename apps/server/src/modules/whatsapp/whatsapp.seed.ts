import { z } from 'zod';
import { AppError } from '../../kit/errors.js';
import { SeedError, seedExtension, type SeedContext } from '../../kit/seed.js';
import type { Channel } from '../channels/index.js';
import { Template } from '../templates/index.js';
import { prepareConnection } from './whatsapp-connection.service.js';
import { WhatsAppConnection } from './whatsapp-connection.entity.js';
import { whatsAppCredentialsSchema } from './whatsapp-credentials.js';
import { WHATSAPP, WHATSAPP_CLOUD } from './whatsapp.js';

/**
 * `channels[].provider`: `"sandbox"` (the default) or `{"type": "whatsapp_cloud", phoneNumberId, wabaId, accessToken,
 * appSecret, verifyToken, appId?}`. Read as a union on `type`, so a problem in a WhatsApp entry names its field.
 */
const providerSchema = z.preprocess(
  (value) => (value === undefined || value === 'sandbox' ? { type: 'sandbox' } : value),
  z.discriminatedUnion(
    'type',
    [
      z.object({ type: z.literal('sandbox') }).strict(),
      whatsAppCredentialsSchema.extend({ type: z.literal(WHATSAPP_CLOUD) }).strict(),
    ],
    {
      errorMap: () => ({
        message:
          'must be "sandbox" or {"type": "whatsapp_cloud", "phoneNumberId", "wabaId", "accessToken", "appSecret", ' +
          '"verifyToken", "appId"?}',
      }),
    },
  ),
);
type ChannelProviderSeed = z.output<typeof providerSchema>;

/**
 * Connects a seeded channel the way every connection starts: its credentials checked with Meta and the business
 * account's templates pulled (prepareConnection). A refusal is a SeedError at `path`, so the file writes nothing.
 */
async function connectSeededChannel(
  ctx: SeedContext,
  channel: Channel,
  provider: ChannelProviderSeed,
  path: string,
): Promise<void> {
  channel.provider = provider.type;
  if (provider.type === 'sandbox') return;
  if (!ctx.services)
    throw new SeedError(
      path,
      'connecting a WhatsApp Cloud API channel needs the server’s services: load this file with `pnpm cli seed`',
    );
  const { type: _type, ...credentials } = provider;
  let prepared;
  try {
    prepared = await prepareConnection(ctx.services.get(WHATSAPP), channel.id, credentials);
  } catch (error) {
    if (error instanceof AppError) throw new SeedError(path, error.message);
    throw error;
  }
  ctx.em.create(WhatsAppConnection, { channel, ...prepared.columns });
  for (const template of prepared.templates) ctx.em.create(Template, { channel, ...template });
}

/** `channels[].provider`: a channel seeded as a WhatsApp Cloud API channel is connected as it loads. */
export const channelProviderSeed = seedExtension({
  extends: 'channels',
  fields: { provider: providerSchema },
  load: (ctx, channel: Channel, { provider }, path) => connectSeededChannel(ctx, channel, provider, `${path}.provider`),
});
