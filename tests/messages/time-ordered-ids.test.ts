import { receiveSandboxMessage } from '@switchboard/server';
import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { test } from '../helpers/test.js';
import { started as audienceResolved, untilBroadcast } from '../broadcasts/broadcast-waits.js';

/** The millisecond timestamp of a UUIDv7 (RFC 9562: its first 48 bits), or NaN for another version; dashes or not. */
function v7Time(id: string): number {
  const hex = id.replaceAll('-', '');
  return hex[12] === '7' ? parseInt(hex.slice(0, 12), 16) : NaN;
}

/**
 * Messages and broadcasts get time-ordered ids (UUIDv7) on every path that writes them, from the server and from
 * PostgreSQL (a broadcast's sends, queued by one INSERT … SELECT; the columns' default), so bulk inserts append to
 * their indexes (docs/benchmarks.md, Broadcasts). Rows made before keep their random ids.
 */
describe('time-ordered ids', { timeout: 90_000 }, () => {
  test('messages of every path and broadcasts have UUIDv7 ids made when they were written', async ({
    server,
    acme,
  }) => {
    const started = Date.now() - 1_000;
    const client = server.client(acme.memberKey);
    const sent = await client.workspace.chat.templates.send({
      to: '15550004001',
      templateName: 'order_update',
      variables: 'Ada,A-1',
    });
    await receiveSandboxMessage({ em: server.database.orm.em.fork() }, server.jobs, {
      channelId: acme.mainChannelId,
      from: '15550004002',
      text: 'Hello',
      msgid: 'wamid.V7IN',
    });
    const broadcast = await client.workspace.broadcasts.manage({
      action: 'create',
      name: 'Time-ordered',
      templateName: 'order_update',
      variables: ['{{contact.name}}', 'A-1'],
      audience: { all: true },
    });
    // Its sends are queued in the background, once the audience is resolved.
    const prepared = await untilBroadcast(client.workspace.broadcasts, broadcast.data.id, audienceResolved);
    const [bulk] = await sql<{ id: string }>(
      server.databaseUrl,
      `insert into messages (channel_id, msgid, direction, type, status, "from", provider)
       values ($1, 'wamid.V7SQL', 'inbound', 'text', 'delivered', '15550004003', 'sandbox') returning id`,
      [acme.mainChannelId],
    );
    const finished = Date.now() + 1_000;

    const rows = await sql<{ id: string; msgid: string; broadcast_id: string | null }>(
      server.databaseUrl,
      `select id, msgid, broadcast_id from messages
        where msgid in ($1, 'wamid.V7IN') or broadcast_id = $2 order by created_at`,
      [sent.data.msgid, broadcast.data.id],
    );
    expect(rows.filter((row) => row.broadcast_id !== null).length).toBe(prepared.counts.recipients);
    expect(prepared.counts.recipients).toBeGreaterThan(0);
    for (const id of [...rows.map((row) => row.id), broadcast.data.id, bulk!.id]) {
      expect(v7Time(id), id).toBeGreaterThanOrEqual(started);
      expect(v7Time(id), id).toBeLessThanOrEqual(finished);
    }
    // A message queued by the pipeline (a broadcast's) has a time-ordered msgid too (its unique index).
    for (const { msgid } of rows.filter((row) => row.broadcast_id !== null)) {
      expect(msgid).toMatch(/^sbm\.[0-9a-f]{32}$/);
      expect(v7Time(msgid.slice(4))).toBeGreaterThanOrEqual(started);
    }
  });
});
