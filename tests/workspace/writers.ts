import { sql } from '../helpers/database.js';
import type { Tenant } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';

/**
 * Extra users of `tenant` with keys, authorized for its main channel only, handed out in turn. api_write allows 30
 * calls a minute per user; write-heavy suites spread their calls over several users instead of waiting out the window.
 */
export async function writerKeys(server: TestServer, tenant: Tenant, count = 4): Promise<() => string> {
  const ids = await server.seed({
    users: Array.from({ length: count }, (_, i) => ({
      ref: `writer${i}`,
      platform: tenant.platformId,
      email: `writer${i}@${tenant.mainChannelId}.example.com`,
      name: `Writer ${i}`,
      apiKey: true,
    })),
  });
  const users = Object.values(ids.users!);
  await sql(server.databaseUrl, 'insert into channel_users (channel_id, user_id) select $1, unnest($2::uuid[])', [
    tenant.mainChannelId,
    users.map((u) => u.id),
  ]);
  let next = 0;
  return () => users[next++ % users.length]!.apiKey!;
}
