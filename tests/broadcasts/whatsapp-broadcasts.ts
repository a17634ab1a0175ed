import type { Broadcast, MessageStatus } from '@switchboard/contract';
import { afterAll, expect, vi } from 'vitest';
import { startGraphStandIn, type RecordedRequest } from '../helpers/graph-stand-in.js';
import { test as base } from '../helpers/test.js';
import { newWebhookSecret, startWebhookReceiver } from '../helpers/receivers.js';
import {
  META_TEMPLATES,
  SECRETS_KEY,
  whatsAppAccount,
  whatsAppTenantIds,
  whatsAppTenantSeed,
} from '../whatsapp/whatsapp-fixtures.js';
import { untilBroadcast } from './broadcast-waits.js';

/**
 * What the broadcast suites share: a WhatsApp tenant whose channel sends through the Graph stand-in (what Meta
 * received is what was sent), a webhook receiver subscribed to `events`, and the file's `test` with fixtures `wa`
 * (the tenant), `client` (its owner's workspace) and `until` (broadcasts/list polled until a broadcast satisfies a
 * predicate). Call once at the top of a test file; it closes the stand-in and the receiver after the file.
 */
export async function whatsAppBroadcasts(events: string[], serverEnv: Record<string, string> = {}) {
  const account = whatsAppAccount();
  const graph = await startGraphStandIn({
    accessTokens: [account.accessToken],
    phoneNumbers: [account],
    templates: { [account.wabaId]: META_TEMPLATES() },
  });
  const secret = newWebhookSecret();
  const hooks = await startWebhookReceiver(secret);
  afterAll(async () => {
    await graph.close();
    await hooks.close();
  });
  const sendPath = `/v23.0/${account.phoneNumberId}/messages`;
  /** The Graph sends to these phones, in arrival order. */
  const sendsTo = (phones: ReadonlySet<string>): RecordedRequest[] =>
    graph.requests.filter(
      (r) => r.method === 'POST' && r.path === sendPath && phones.has((r.body as { to: string }).to),
    );
  /** The events the receiver verified, of one type. */
  const received = (type: string) =>
    hooks.received.flatMap((hook) => (hook.verified?.type === type ? [hook.verified as { data: unknown }] : []));
  /** The `message.status.updated` events the receiver verified (of one msgid when given). */
  const statusEvents = (msgid?: string) =>
    received('message.status.updated')
      .map((event) => event.data as StatusEvent)
      .filter((data) => msgid === undefined || data.msgid === msgid);

  const test = base
    .extend('wa', { scope: 'file' }, async ({ server }) => {
      const file = whatsAppTenantSeed(account);
      if (events.length) file.platforms![0]!.webhooks = [{ url: hooks.url, secret, events }];
      return whatsAppTenantIds(await server.seed(file));
    })
    .extend('client', ({ server, wa }) => server.client(wa.ownerKey).workspace)
    /** Polls broadcasts/list (the signal) until the broadcast satisfies `done`. */
    .extend(
      'until',
      ({ client, wa }) =>
        (id: string, done: (b: Broadcast) => boolean, timeoutMs = 30_000) =>
          untilBroadcast(client.broadcasts, id, done, { channelId: wa.waChannelId, timeoutMs }),
    )
    /** chat/templates/send of a template of the stand-in's account, scheduled `seconds` ahead: its msgid. */
    .extend(
      'schedule',
      ({ client, wa }) =>
        async (to: string, templateName: string, variables: string[], seconds: number) =>
          (
            await client.chat.templates.send({
              channelId: wa.waChannelId,
              to,
              templateName,
              language: 'en_US',
              variables,
              scheduledAt: new Date(Date.now() + seconds * 1000).toISOString(),
            })
          ).data.msgid,
    )
    /** Polls chat/message/status (the signal for scheduled work) until the message's status is `status`. */
    .extend(
      'untilStatus',
      ({ client }) =>
        (msgid: string, status: string): Promise<MessageStatus> =>
          vi.waitFor(
            async () => {
              const { data } = await client.chat.message.status({ msgid });
              expect(data.status).toBe(status);
              return data;
            },
            { timeout: 30_000, interval: 200 },
          ),
    );
  test.override('serverEnv', {
    // The suites poll broadcasts/list for their signals: more than a minute's default api_read budget.
    RATE_LIMIT_API_READ: '10000',
    SECRETS_KEY,
    WHATSAPP_GRAPH_URL: graph.url,
    TEMPLATE_SYNC_MINUTES: '0',
    ALLOW_HTTP_WEBHOOKS: 'true',
    ...serverEnv,
  });
  return { account, graph, hooks, test, sendsTo, statusEvents };
}

/** A `message.status.updated` event's data, as the tests read it. */
interface StatusEvent {
  msgid: string;
  status: string;
  previousStatus: string;
  reason?: string;
  error?: { code: number; title: string };
}

/** broadcasts/manage create of the stand-in's `order_update` (UTILITY), its first variable filled per recipient. */
export const orderUpdate = (
  channelId: string,
  name: string,
  audience: { labelIds: string[] },
  more: Record<string, unknown> = {},
) => ({
  channelId,
  action: 'create' as const,
  name,
  templateName: 'order_update',
  language: 'en_US',
  variables: ['{{contact.name}}', 'A-1001'],
  audience,
  ...more,
});

/** A broadcast's counts summed: they add up to `recipients`. */
export const countsSum = ({ recipients: _all, ...counts }: Broadcast['counts']) =>
  Object.values(counts).reduce((a, b) => a + b, 0);
