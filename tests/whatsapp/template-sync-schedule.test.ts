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

const SCHEDULE_QUEUE = 'whatsapp.template-sync-schedule';

describe('scheduled template sync', () => {
  it(
    'keeps the schedule in PostgreSQL (TEMPLATE_SYNC_MINUTES; 0 removes it) and pulls every connected channel when ' +
      'it fires',
    async () => {
      const databaseUrl = await createFreshDatabase();
      const env = { DATABASE_URL: databaseUrl, SECRETS_KEY, WHATSAPP_GRAPH_URL: graph.url };
      const schedules = () =>
        sql(databaseUrl, 'select name, cron from pgboss.schedule where name = $1', [SCHEDULE_QUEUE]);
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
        expect(await schedules()).toEqual([{ name: SCHEDULE_QUEUE, cron: 'FREQ=MINUTELY;INTERVAL=1' }]);
        // pg-boss's cron pass runs at start and every 30 s and files each minute's occurrence once, whatever the
        // number of instances; the sync follows within seconds of the pass that sends it.
        await expect.poll(() => stored(wa.waChannelId), { timeout: 100_000, interval: 500 }).toEqual(['scheduled_one']);
        expect(await stored(wa.sandboxChannelId)).toEqual(['hello']);
      } finally {
        await second.close();
      }
      const third = await startTestServer({ ...env, TEMPLATE_SYNC_MINUTES: '0' });
      expect(await schedules()).toEqual([]);
      await third.close();
    },
    150_000,
  );
});
