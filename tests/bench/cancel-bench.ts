/**
 * What cancelling a large broadcast costs (`cancel` in BENCH_ONLY), on a scratch database of its own (created and
 * dropped here) per audience size in BENCH_CANCEL_RECIPIENTS (default 10,000 and 100,000): a channel with that many
 * active contacts, one broadcast to all of them at 1 a second (so nearly all are queued), the product as `pnpm start`
 * runs it. Then, on a warmed pool (a scheduled send cancelled just before: a one-row update of messages through the
 * same triggers, on the connection the pool hands out next), broadcasts/manage `cancel`: its reply time (the issue's
 * bound: 2 s), and how long until every unsent message is `cancelled` and its recipient `skipped` (the sweep).
 */
import pg from 'pg';
import { scratchDatabase } from './bench-database.js';
import { seedTenant } from './bulk-contacts.js';
import { startProduct } from './servers.js';

export interface CancelFigures {
  recipients: number;
  /** From the create request until the broadcast is `sending` (its preparation). */
  prepareMs: number;
  /** The cancel request, round trip. */
  replyMs: number;
  /** From the cancel request until no message of the broadcast is left unsent and the counts say so. */
  settledMs: number;
  /** Messages handed to the provider before the cancel took effect. */
  sentBefore: number;
}

const WORKSPACE = '/api/workspace/v1';

async function post(baseUrl: string, apiKey: string, path: string, body: object) {
  const reply = await fetch(`${baseUrl}${WORKSPACE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify(body),
  });
  const json = (await reply.json()) as { data: { id: string; msgid: string } };
  if (!reply.ok) throw new Error(`${path}: ${reply.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** Polls `query`'s first row every 50 ms until `done`. */
async function until<T>(client: pg.Client, query: string, params: unknown[], done: (row: T) => boolean): Promise<T> {
  for (;;) {
    const { rows } = await client.query(query, params);
    if (done(rows[0] as T)) return rows[0] as T;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The channel's `recipients` active contacts and an approved UTILITY template, set-based. */
async function audience(client: pg.Client, channelId: string, recipients: number) {
  await client.query(
    `insert into templates (channel_id, name, category, language, status, body, variable_count)
     values ($1, 'notice', 'UTILITY', 'en_US', 'approved', 'Hi {{1}}, your parcel left.', 1)`,
    [channelId],
  );
  await client.query(
    `insert into contacts (channel_id, name, phone)
     select $1, 'Recipient ' || g, (16000000000 + g)::text from generate_series(1, $2::int) g`,
    [channelId, recipients],
  );
  await client.query('vacuum analyze contacts');
}

async function cancelOnce(databaseUrl: string, recipients: number, dist: string, artifacts: string) {
  const { channelId, apiKeys } = await seedTenant(databaseUrl, 1, 0);
  const apiKey = apiKeys[0]!;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await audience(client, channelId, recipients);
  const server = await startProduct(databaseUrl, apiKey, artifacts, dist);
  try {
    const asked = Date.now();
    const broadcast = await post(server.baseUrl, apiKey, '/broadcasts/manage', {
      channelId,
      action: 'create',
      name: 'Cancelled',
      templateName: 'notice',
      variables: ['{{contact.name}}'],
      audience: { all: true },
      ratePerSecond: 1,
    });
    await until<{ status: string }>(client, 'select status from broadcasts where id = $1', [broadcast.id], (row) =>
      ['sending', 'completed'].includes(row.status),
    );
    const prepareMs = Date.now() - asked;
    const scheduled = await post(server.baseUrl, apiKey, '/chat/templates/send', {
      channelId,
      to: '16000000001',
      templateName: 'notice',
      variables: 'Ada',
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await post(server.baseUrl, apiKey, '/chat/message/cancel', { msgid: scheduled.msgid });
    const cancelAt = Date.now();
    await post(server.baseUrl, apiKey, '/broadcasts/manage', {
      channelId,
      action: 'cancel',
      broadcastId: broadcast.id,
    });
    const replyMs = Date.now() - cancelAt;
    const settled = await until<{ unsent: number; sent: number }>(
      client,
      `select count(*) filter (where status in ('queued', 'scheduled', 'sending'))::int as unsent,
              count(*) filter (where status not in ('queued', 'scheduled', 'sending', 'cancelled'))::int as sent
         from messages where broadcast_id = $1`,
      [broadcast.id],
      (row) => row.unsent === 0,
    );
    return { recipients, prepareMs, replyMs, settledMs: Date.now() - cancelAt, sentBefore: settled.sent };
  } finally {
    await server.stop();
    await client.end();
  }
}

/** Runs the cancel figures for each audience size on a scratch database `switchboard_cancel_<n>` at `adminUrl`. */
export async function measureCancels(
  adminUrl: string,
  sizes: readonly number[],
  build: { dist: string; artifacts: string },
  log: (line: string) => void,
): Promise<CancelFigures[]> {
  const figures: CancelFigures[] = [];
  for (const recipients of sizes) {
    log(`cancel: a broadcast to ${recipients.toLocaleString('en-US')} contacts, cancelled on a warmed pool`);
    const scratch = await scratchDatabase(adminUrl, `switchboard_cancel_${recipients}`);
    try {
      figures.push(await cancelOnce(scratch.url, recipients, build.dist, build.artifacts));
    } finally {
      await scratch.drop();
    }
    log(`cancel: ${JSON.stringify(figures.at(-1))}`);
  }
  return figures;
}

/** The figures as a Markdown table. */
export function cancelReport(figures: readonly CancelFigures[]): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return [
    '',
    '## Cancelling a broadcast on a warmed pool',
    '',
    '| recipients | prepared (create → sending) | cancel reply (≤ 2 s) | every unsent one cancelled | sent before |',
    '|---|---|---|---|---|',
    ...figures.map(
      (f) =>
        `| ${f.recipients.toLocaleString('en-US')} | ${seconds(f.prepareMs)} | ${seconds(f.replyMs)} | ` +
        `${seconds(f.settledMs)} | ${f.sentBefore} |`,
    ),
    '',
  ].join('\n');
}
