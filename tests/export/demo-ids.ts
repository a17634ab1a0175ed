import { demoExampleIds, demoSeed, type SeedFile, type SeedResult } from '@switchboard/server';
import type { TestServer } from '../helpers/server.js';

/**
 * The demo data with its owner authorized for one channel (Support) only: tools that leave optional parameters out
 * (Portman's defaults, a GET without channelId) then reach that channel, as the README's first steps do.
 */
export const singleChannelDemo: SeedFile = {
  ...demoSeed,
  channels: demoSeed.channels?.map((channel) =>
    channel.ref === 'support' ? channel : { ...channel, users: ['agent'] },
  ),
};

/**
 * The values of the Postman variables (and of Portman's replacements) for the seeded demo: its owner's key and the
 * sample ids the modules fill from their demo entries.
 */
export function demoVariables(baseUrl: string, seeded: SeedResult) {
  const ids = demoExampleIds(seeded);
  const filled = (
    name: 'platformId' | 'channelId' | 'userId' | 'addonId' | 'ticketId' | 'automationId' | 'broadcastId',
  ) => {
    const id = ids[name];
    if (!id) throw new Error(`the demo data fills no ${name}: a module's manifest lost its demo example`);
    return id;
  };
  return {
    baseUrl,
    apiKey: seeded.users!.owner!.apiKey!,
    platformId: filled('platformId'),
    channelId: filled('channelId'),
    userId: filled('userId'),
    addonId: filled('addonId'),
    ticketId: filled('ticketId'),
    automationId: filled('automationId'),
    broadcastId: filled('broadcastId'),
  };
}

/**
 * A webhook endpoint of the demo platform, made through the API, for the examples that read one (webhooks/deliveries).
 * Not at the URL of webhooks/manage's example, which replaces the endpoint there.
 */
export async function demoWebhookEndpointId(
  server: TestServer,
  { apiKey, platformId }: ReturnType<typeof demoVariables>,
): Promise<string> {
  const reply = await server
    .client(apiKey)
    .platform.webhooks.manage({ platformId, url: 'https://hooks.example.com/delivery-log', events: ['ticket.closed'] });
  return reply.data.id;
}
