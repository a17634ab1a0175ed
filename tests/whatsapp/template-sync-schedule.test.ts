import { afterAll, describe, expect, it } from 'vitest';
import { createFreshDatabase, sql } from '../helpers/database.js';
import { startGraphStandIn } from '../helpers/graph-stand-in.js';
import { startTestServer } from '../helpers/server.js';
import {
  META_TEMPLATES,
  SECRETS_KEY,
  template,
  whatsAppAccount,
  whatsAppTenantIds,
  whatsAppTenantSeed,
} from './whatsapp-fixtures.js';

const account = whatsAppAccount();
const graph = await startGraphStandIn({
  accessTokens: [account.accessToken],
  phoneNumbers: [account],
  templates: { [account.wabaId]: META_TEMPLATES() },
});
afterAll(() => graph.close());

describe('scheduled template sync', () => {
  it(
    'is a named worker (TEMPLATE_SYNC_MINUTES; 0: none) that pulls every connected channel each time it runs, ' +
      'with no pg-boss schedule left behind',
    async () => {
      const databaseUrl = await createFreshDatabase();
      const env = { DATABASE_URL: databaseUrl, SECRETS_KEY, WHATSAPP_GRAPH_URL: graph.url };
      const schedules = () => sql(databaseUrl, 'select name from pgboss.schedule');
      const stored = async (channelId: string) =>
        (await sql(databaseUrl, 'select name from templates where channel_id = $1 order by name', [channelId])).map(
          (row) => row.name as string,
        );

      const first = await startTestServer({ ...env, TEMPLATE_SYNC_MINUTES: '0' });
      const wa = whatsAppTenantIds(await first.seed(whatsAppTenantSeed(account)));
      expect(await schedules()).toEqual([]);
      await first.close();

      // Meta's side changes while no sync runs; a restart with a schedule picks the change up by itself.
      graph.templates[account.wabaId] = [template('scheduled_one')];
      const second = await startTestServer({ ...env, TEMPLATE_SYNC_MINUTES: '1' });
      try {
        expect(await schedules()).toEqual([]);
        // The worker's first pass comes a minute after start; each channel's sync follows within seconds.
        await expect.poll(() => stored(wa.waChannelId), { timeout: 100_000, interval: 500 }).toEqual(['scheduled_one']);
        expect(await stored(wa.sandboxChannelId)).toEqual(['hello']);
      } finally {
        await second.close();
      }
    },
    150_000,
  );
});
