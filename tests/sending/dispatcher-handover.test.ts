import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { whatsAppBroadcasts } from '../broadcasts/whatsapp-broadcasts.js';

/**
 * What the dispatcher reads when it takes a queued send (issue #38): the quoted message of a reply is looked up in
 * the send's own channel, so a `reply_to` naming another channel's message never reaches Meta as its context.
 */
const { test, graph } = await whatsAppBroadcasts([]);

/** A customer's message of `channelId` with Meta's id `providerId`, recorded directly (its msgid is the same). */
const inbound = (databaseUrl: string, channelId: string, providerId: string) =>
  sql(
    databaseUrl,
    `insert into messages (channel_id, msgid, provider_message_id, direction, type, status, "from", body, provider)
     values ($1, $2, $2, 'inbound', 'text', 'delivered', '15594000001', 'Hello', 'whatsapp_cloud')`,
    [channelId, providerId],
  );

/** A queued text reply of the WhatsApp channel quoting `replyTo`, due now: what an automation's reply leaves. */
async function queuedReply(databaseUrl: string, channelId: string, replyTo: string): Promise<string> {
  const msgid = `sbm.${randomUUID().replaceAll('-', '')}`;
  await sql(
    databaseUrl,
    `insert into messages (channel_id, msgid, direction, type, status, "to", body, reply_to, provider, due_at)
     values ($1, $2, 'outbound', 'text', 'queued', '15594000001', 'Thanks!', $3, 'whatsapp_cloud', now())`,
    [channelId, msgid, replyTo],
  );
  return msgid;
}

describe('the dispatcher’s hand-over', { timeout: 60_000 }, () => {
  test('quotes a message of the send’s own channel; another channel’s msgid is no context', async ({
    server,
    wa,
    untilStatus,
  }) => {
    const own = `wamid.${randomUUID()}`;
    const foreign = `wamid.${randomUUID()}`;
    await inbound(server.databaseUrl, wa.waChannelId, own);
    await inbound(server.databaseUrl, wa.sandboxChannelId, foreign);
    const quoting = await queuedReply(server.databaseUrl, wa.waChannelId, own);
    const crossing = await queuedReply(server.databaseUrl, wa.waChannelId, foreign);
    await untilStatus(quoting, 'accepted');
    await untilStatus(crossing, 'accepted');
    const contexts = graph.requests
      .filter((r) => r.method === 'POST' && (r.body as { to?: string }).to === '15594000001')
      .map((r) => (r.body as { context?: { message_id: string } }).context?.message_id ?? null);
    expect(contexts.sort()).toEqual([own, null].sort());
  });
});
