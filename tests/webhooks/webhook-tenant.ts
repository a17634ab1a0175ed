import type { SeedFile } from '@switchboard/server';
import { tenantSeed } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';

type WebhookSeed = NonNullable<NonNullable<SeedFile['platforms']>[number]['webhooks']>[number];

export interface WebhookTenant {
  platformId: string;
  ownerKey: string;
  ticketId: string;
}

/** The usual test tenant (tests/helpers/fixtures.ts) with webhook endpoints in its seed file. */
export async function seedTenantWithWebhooks(
  server: TestServer,
  name: string,
  webhooks: WebhookSeed[],
): Promise<WebhookTenant> {
  const file = tenantSeed(name);
  file.platforms![0]!.webhooks = webhooks;
  const ids = await server.seed(file);
  return { platformId: ids.platforms!.p!, ownerKey: ids.users!.owner!.apiKey!, ticketId: ids.tickets!.t1!.id };
}
