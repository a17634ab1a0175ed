import { createLogger, loadConfig, openDatabase } from '@switchboard/server';
import { expect } from 'vitest';
import { createSecretBox } from '../../apps/server/src/kit/secrets.js';
import { connectWhatsAppChannel } from '../../apps/server/src/modules/whatsapp/whatsapp-connection.service.js';
import { createWhatsApp } from '../../apps/server/src/modules/whatsapp/whatsapp.js';
import { COUNTS } from '../bench/broadcast-bench.js';
import { sql } from '../helpers/database.js';
import { startGraphStandIn, type GraphStandIn } from '../helpers/graph-stand-in.js';
import { TEST_SECRETS_KEY } from '../helpers/secrets-key.js';
import { prepareSpawnedTenant } from '../hostile/spawned-tenant.js';
import { credentialsOf, META_TEMPLATES, whatsAppAccount, type WhatsAppAccount } from '../whatsapp/whatsapp-fixtures.js';

/** The broadcasts' own pace: slow enough that a crash or an outage lands while most of the audience is to come. */
const RATE_PER_SECOND = 20;
/** How long the stand-in takes to answer a send: long enough that every moment of the stream has calls in flight. */
const GRAPH_ANSWER_MS = 300;

type BroadcastCounts = { status: string } & Record<
  'recipients' | 'queued' | 'sent' | 'delivered' | 'read' | 'failed' | 'skipped',
  number
>;

const phoneOf = (i: number) => `1555300${String(i).padStart(4, '0')}`;

/**
 * A tenant for the built server, spawned on its own: its main channel connected to the WhatsApp Cloud API of a Graph
 * stand-in in this process (answering slowly), with `recipients` contacts under one label, the broadcast's audience.
 */
export interface BroadcastStage {
  graph: GraphStandIn;
  /** What the spawned server needs besides its database: the stand-in, and the key the channel's secrets use. */
  env: Record<string, string>;
  phones: string[];
  /**
   * broadcasts/manage `create` over HTTP, as an integrator starts one; returns the broadcast's id and start, once its
   * preparation made it `sending`.
   */
  createBroadcast(baseUrl: string, name: string): Promise<{ id: string; startedAt: string }>;
  /** The broadcast's status and counts as PostgreSQL holds them. */
  counts(databaseUrl: string, id: string): Promise<BroadcastCounts>;
  /** The sends Meta received for this audience (POSTs to the number's messages path): their phones, in order. */
  calls(): string[];
  /** Sends the stand-in is still holding its answer to: a crash or an outage now lands on calls in flight. */
  callsAwaitingAnswer(): number;
}

/** Connects the tenant's main channel to `account` the way operators do: one Graph check, its templates pulled. */
async function connectToStandIn(
  databaseUrl: string,
  graph: GraphStandIn,
  account: WhatsAppAccount,
  platformId: string,
) {
  const config = loadConfig({ DATABASE_URL: databaseUrl, WHATSAPP_GRAPH_URL: graph.url, LOG_LEVEL: 'silent' });
  const database = await openDatabase(config, createLogger('silent'), 2);
  const whatsApp = createWhatsApp(config, createSecretBox(TEST_SECRETS_KEY));
  try {
    const [main] = await sql(databaseUrl, `select id from channels where platform_id = $1 and name like '% Main'`, [
      platformId,
    ]);
    await connectWhatsAppChannel({ em: database.orm.em.fork() }, whatsApp, main!.id, credentialsOf(account));
  } finally {
    await whatsApp.graph.close();
    await database.close();
  }
}

/** When the broadcast started sending, polled as PostgreSQL holds it (its preparation runs in the background). */
async function startedAt(databaseUrl: string, id: string): Promise<string> {
  for (;;) {
    const [row] = await sql<{ started_at: Date | null }>(
      databaseUrl,
      'select started_at from broadcasts where id = $1',
      [id],
    );
    if (row?.started_at) return row.started_at.toISOString();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function stageWhatsAppBroadcast(databaseUrl: string, recipients: number): Promise<BroadcastStage> {
  const phones = Array.from({ length: recipients }, (_, i) => phoneOf(i));
  const tenant = await prepareSpawnedTenant(databaseUrl, (file) => {
    file.labels!.push({ channel: 'main', name: 'crowd' });
    phones.forEach((phone, i) =>
      file.contacts!.push({ channel: 'main', name: `Crowd ${i}`, phone, labels: ['crowd'] }),
    );
  });
  const account = whatsAppAccount();
  const graph = await startGraphStandIn({
    accessTokens: [account.accessToken],
    phoneNumbers: [account],
    templates: { [account.wabaId]: META_TEMPLATES() },
    answerDelayMs: GRAPH_ANSWER_MS,
  });
  await connectToStandIn(databaseUrl, graph, account, tenant.platformId);
  const [crowd] = await sql(databaseUrl, `select id from labels where name = 'crowd'`);
  const sendPath = `/v23.0/${account.phoneNumberId}/messages`;
  const sends = () => graph.requests.filter((request) => request.method === 'POST' && request.path === sendPath);
  // The member's key: the connected main channel is its only one, so requests need not name it.
  const key = tenant.keys[1]!;
  return {
    graph,
    env: { SECRETS_KEY: TEST_SECRETS_KEY, WHATSAPP_GRAPH_URL: graph.url, TEMPLATE_SYNC_MINUTES: '0' },
    phones,
    async createBroadcast(baseUrl, name) {
      const reply = await fetch(`${baseUrl}/api/workspace/v1/broadcasts/manage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({
          action: 'create',
          name,
          templateName: 'order_update',
          language: 'en_US',
          variables: ['{{contact.name}}', 'A-1'],
          audience: { labelIds: [crowd!.id] },
          ratePerSecond: RATE_PER_SECOND,
        }),
      });
      expect(reply.status).toBe(200);
      const { id } = ((await reply.json()) as { data: { id: string } }).data;
      return { id, startedAt: await startedAt(databaseUrl, id) };
    },
    counts: async (url, id) => (await sql<BroadcastCounts>(url, COUNTS, [id]))[0]!,
    calls: () => sends().map((request) => (request.body as { to: string }).to),
    // Every answer is held GRAPH_ANSWER_MS: a call received within half of that is surely still unanswered.
    callsAwaitingAnswer: () =>
      sends().filter((request) => request.receivedAt > Date.now() - GRAPH_ANSWER_MS / 2).length,
  };
}

/** When the last of a broadcast of `recipients` started at `startedAt` falls due, at the stage's pace. */
export const lastDueAt = (startedAt: string, recipients: number) =>
  Date.parse(startedAt) + ((recipients - 1) / RATE_PER_SECOND) * 1000;

/**
 * The pipeline's promise for a broadcast that went through a crash or an outage, checked once it is completed: the
 * counts add up, every recipient is final (sent or later, or failed `outcome_unknown`), each has exactly one message
 * and none is left in the pipeline, and Meta got at most one send per recipient (exactly one for each sent).
 * Returns how many recipients ended in each final state (a reason beside `failed`).
 */
export async function expectNeverSentTwice(stage: BroadcastStage, databaseUrl: string, id: string) {
  const counts = await stage.counts(databaseUrl, id);
  expect(counts).toMatchObject({ status: 'completed', recipients: stage.phones.length, queued: 0 });
  const { sent, delivered, read, failed, skipped } = counts;
  expect(sent + delivered + read + failed + skipped).toBe(stage.phones.length);

  const recipients = await sql<{ phone: string; status: string; reason: string | null }>(
    databaseUrl,
    'select phone, status, reason from broadcast_recipients where broadcast_id = $1',
    [id],
  );
  const finalStates = recipients.map(({ status, reason }) => (status === 'failed' ? `failed ${reason}` : status));
  const FINAL = ['sent', 'delivered', 'read', 'failed outcome_unknown'];
  expect(finalStates.filter((state) => !FINAL.includes(state))).toEqual([]);

  const messages = await sql<{ to: string; status: string }>(
    databaseUrl,
    `select "to", status from messages where broadcast_id = $1`,
    [id],
  );
  expect(messages.map((message) => message.to).sort()).toEqual([...stage.phones].sort());
  expect(messages.filter((message) => ['queued', 'scheduled', 'sending'].includes(message.status))).toEqual([]);

  const calls = stage.calls();
  const callsTo = (phone: string) => calls.filter((to) => to === phone).length;
  expect(stage.phones.filter((phone) => callsTo(phone) > 1)).toEqual([]);
  const answered = recipients.filter((recipient) => recipient.status !== 'failed');
  expect(answered.filter((recipient) => callsTo(recipient.phone) !== 1)).toEqual([]);
  const tally: Record<string, number> = {};
  for (const state of finalStates) tally[state] = (tally[state] ?? 0) + 1;
  return tally;
}
