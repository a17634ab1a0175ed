import { loadavg } from 'node:os';
import pg from 'pg';
import { bulkLoadContacts, type BenchTenant } from './bulk-contacts.js';
import type { LoadResult, LoadSpec } from './load-worker.js';
import { cpuMs, startProduct } from './servers.js';

/**
 * The broadcast figures (`broadcasts` in BENCH_ONLY): on a channel of its own with BENCH_BROADCAST_RECIPIENTS
 * contacts (default 100,000), with the channel rate raised to BENCH_BROADCAST_RATE (default 2,000/s), against the
 * sandbox provider: the create request's time; the start (until the broadcast counts its recipients and has left
 * `preparing`: its audience resolved, its first sends queued); the preparation (until every recipient's send is
 * queued, a chunk at a time after the start); from the create request to the first message handed to the provider;
 * dispatch
 * (messages handed to the provider per second, sustained between 10% and 90% of the audience, and the server's CPU
 * per message), the roll-up of every recipient's `delivered` (the sandbox's reports), and the bench channel's
 * chat/message/send p50 idle and while the broadcast sends.
 */
export interface BroadcastFigures {
  recipients: number;
  channelRate: number;
  load: number[];
  createRequestMs: number;
  /** Until the broadcast counts its recipients and sends (the audience resolved, its first sends queued). */
  startMs: number;
  preparationMs: number;
  firstSendMs: number;
  dispatchPerSecond: number;
  dispatchCpuMsPerMessage: number;
  deliveredRollupMs: number;
  otherChannelSendP50: { idle: number; duringBroadcast: number };
}

interface BenchContext {
  url: string;
  tenant: BenchTenant;
  dist: string;
  artifacts: string;
  /** Phones of the bench channel whose 24-hour window is open: chat/message/send's recipients. */
  openPhones: string[];
  runLoad(spec: LoadSpec): Promise<LoadResult>;
  log(line: string): void;
}

const RECIPIENTS = Number(process.env.BENCH_BROADCAST_RECIPIENTS ?? 100_000);
const RATE = Number(process.env.BENCH_BROADCAST_RATE ?? 2_000);
const WORKSPACE = '/api/workspace/v1';

/** A channel of the bench platform for the broadcast, every bench key authorized, with an approved template. */
async function broadcastChannel(url: string, tenant: BenchTenant): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `insert into channels (platform_id, name, phone)
       select platform_id, 'Broadcast bench ' || now(), '14150000001' from channels where id = $1 returning id`,
      [tenant.channelId],
    );
    const channelId = rows[0]!.id;
    await client.query(
      `insert into channel_users (channel_id, user_id) select $1, user_id from channel_users where channel_id = $2`,
      [channelId, tenant.channelId],
    );
    await client.query(
      `insert into templates (channel_id, name, category, language, status, body, variable_count)
       values ($1, 'bench_notice', 'UTILITY', 'en_US', 'approved', 'Hi {{1}}, your parcel left.', 1)`,
      [channelId],
    );
    return channelId;
  } finally {
    await client.end();
  }
}

async function post(baseUrl: string, apiKey: string, path: string, body: object) {
  const reply = await fetch(`${baseUrl}${WORKSPACE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify(body),
  });
  const json = (await reply.json()) as { data: { id: string; counts: Record<string, number> } };
  if (!reply.ok) throw new Error(`${path}: ${reply.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** A broadcast's counts: its row's, moved on by its broadcast_count_deltas shards. */
export const COUNTS = `select b.status, b.recipients, b.resolving, ${[
  'queued',
  'sent',
  'delivered',
  'read',
  'failed',
  'skipped',
]
  .map((c) => `(b.${c} + coalesce(sum(d.${c}), 0))::int as ${c}`)
  .join(', ')}
       from broadcasts b left join broadcast_count_deltas d on d.broadcast_id = b.id
      where b.id = $1 group by b.id`;

type Counts = Record<string, number> & { status: string; resolving: boolean };

/** The broadcast's counts as PostgreSQL holds them, polled every `everyMs` until `done`; returns when it was. */
async function until(client: pg.Client, broadcastId: string, done: (counts: Counts) => boolean, everyMs = 100) {
  for (;;) {
    const { rows } = await client.query<Counts>(COUNTS, [broadcastId]);
    if (done(rows[0]!)) return { at: Date.now(), counts: rows[0]! };
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Statuses a broadcast has before its audience is resolved and queued. */
const BEFORE_SENDING = new Set(['scheduled', 'preparing']);

/** chat/message/send on the bench channel for a few seconds, a few connections: its p50. */
async function sendP50(context: BenchContext, baseUrl: string): Promise<number> {
  const result = await context.runLoad({
    url: baseUrl,
    path: `${WORKSPACE}/chat/message/send`,
    mode: 'closed',
    seconds: 5,
    connections: 4,
    rate: 0,
    keys: context.tenant.apiKeys,
    bodies: context.openPhones.map((to) => ({
      body: { channelId: context.tenant.channelId, to, text: 'On its way.' },
    })),
  });
  return result.latency.p50;
}

export async function broadcastBench(context: BenchContext): Promise<BroadcastFigures> {
  const { url, tenant, log } = context;
  const channelId = await broadcastChannel(url, tenant);
  log(`broadcasts: loading ${RECIPIENTS.toLocaleString('en-US')} contacts into a channel of their own`);
  await bulkLoadContacts(url, channelId, RECIPIENTS, log);
  const server = await startProduct(url, tenant.apiKeys[0]!, context.artifacts, context.dist, {
    SEND_RATE_PER_CHANNEL: String(RATE),
  });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const idle = await sendP50(context, server.baseUrl);
    const load = [loadavg()[0]!];
    const cpuBefore = cpuMs(server.pid);
    const started = Date.now();
    const broadcast = await post(server.baseUrl, tenant.apiKeys[0]!, '/broadcasts/manage', {
      channelId,
      action: 'create',
      name: `Bench ${Date.now()}`,
      templateName: 'bench_notice',
      variables: ['{{contact.name}}'],
      audience: { all: true },
      ratePerSecond: RATE,
    });
    const createRequestMs = Date.now() - started;
    // Skipped recipients (unsubscribed, blocked) are never sent: the share is of those to send.
    const toSend = (c: Record<string, number>) => c.recipients! - c.skipped!;
    const handed = (c: Record<string, number>) => toSend(c) - c.queued!;
    const during = sendP50(context, server.baseUrl);
    const resolved = await until(db, broadcast.id, (c) => c.recipients! > 0 && !BEFORE_SENDING.has(c.status), 10);
    const firstSend = await until(db, broadcast.id, (c) => handed(c) >= 1, 10);
    const prepared = await until(db, broadcast.id, (c) => !c.resolving, 10);
    const [startMs, preparationMs, firstSendMs] = [
      resolved.at - started,
      prepared.at - started,
      firstSend.at - started,
    ];
    log(
      `broadcasts: sending at ${startMs} ms, all ${prepared.counts.recipients} recipients resolved and queued at ` +
        `${preparationMs} ms, first sent at ${firstSendMs} ms`,
    );
    const tenth = await until(db, broadcast.id, (c) => handed(c) >= toSend(c) * 0.1);
    const ninetieth = await until(db, broadcast.id, (c) => handed(c) >= toSend(c) * 0.9);
    const dispatchPerSecond = (handed(ninetieth.counts) - handed(tenth.counts)) / ((ninetieth.at - tenth.at) / 1000);
    const sent = await until(db, broadcast.id, (c) => c.queued === 0);
    const dispatchCpuMsPerMessage = (cpuMs(server.pid) - cpuBefore) / Math.max(1, handed(sent.counts));
    const duringBroadcast = await during;
    load.push(loadavg()[0]!);
    log(`broadcasts: dispatch ${dispatchPerSecond.toFixed(0)}/s; waiting for every delivered`);
    const delivered = await until(db, broadcast.id, (c) => c.delivered! + c.read! + c.failed! === handed(c));
    load.push(loadavg()[0]!);
    return {
      recipients: prepared.counts.recipients!,
      channelRate: RATE,
      load,
      createRequestMs,
      startMs,
      preparationMs,
      firstSendMs,
      dispatchPerSecond: Math.round(dispatchPerSecond),
      dispatchCpuMsPerMessage: Math.round(dispatchCpuMsPerMessage * 100) / 100,
      deliveredRollupMs: delivered.at - sent.at,
      otherChannelSendP50: { idle, duringBroadcast },
    };
  } finally {
    await db.end();
    await server.stop();
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

export function broadcastReport(figures: BroadcastFigures): string {
  const { idle, duringBroadcast } = figures.otherChannelSendP50;
  return [
    `broadcasts (${figures.recipients.toLocaleString('en-US')} recipients, channel rate ${figures.channelRate}/s, ` +
      `load average ${figures.load.map((l) => l.toFixed(1)).join(' → ')}):`,
    `  create request: ${seconds(figures.createRequestMs)} s; started (sending, its first chunk queued): ` +
      `${seconds(figures.startMs)} s; preparation (every recipient resolved and queued): ` +
      `${seconds(figures.preparationMs)} s (target ≤ 5 s); create → first message handed to the provider: ` +
      `${seconds(figures.firstSendMs)} s (target ≤ 2 s)`,
    `  dispatch, sustained 10%–90%: ${figures.dispatchPerSecond} messages/s (target ≥ 1,000), server CPU ` +
      `${figures.dispatchCpuMsPerMessage} ms per message`,
    `  delivered roll-up after the last send: ${seconds(figures.deliveredRollupMs)} s (target ≤ 60 s)`,
    `  another channel's chat/message/send p50: idle ${idle} ms, during the broadcast ${duringBroadcast} ms ` +
      `(${(duringBroadcast / Math.max(idle, 0.1)).toFixed(2)}×, target ≤ 2×)`,
    '',
  ].join('\n');
}
