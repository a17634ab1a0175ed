import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { createLogger, loadConfig, migrate, openDatabase, emitEvents, seed, startServer } from '@switchboard/server';
import pg from 'pg';
import { startProduct } from './servers.js';

/**
 * The webhook figures (`webhooks` in BENCH_ONLY; issue #45): one platform's endpoint answering in
 * BENCH_WEBHOOK_ANSWER_MS (default 6) receives `message.status.updated`-sized events produced at BENCH_WEBHOOK_RATE
 * a second (default 200, a broadcast's statuses at the channel budget) for BENCH_WEBHOOK_SECONDS (default 60), while
 * another platform's endpoint, which never answers, has 0, 10,000 or 100,000 deliveries waiting
 * (BENCH_WEBHOOK_WAITING).
 * Events are committed from this process through the product's own write path (emitEvents, a worker-less
 * instance); the product (its own process, `node apps/server/dist/main.js`) delivers them. Per run: events produced
 * and delivered a second, deliveries per 10 s, the lag (receipt − the event's commit) p50/p99, and how long the
 * backlog took to drain after the load stopped. Also the fair-share cost (`shares`, issue #38): queueing an
 * automation trigger with 0 and 100,000 waiting jobs of another channel, by the former count and by the turn tables.
 */
export interface WebhookRun {
  waiting: number;
  load: number[];
  producedPerSecond: number;
  deliveredPerSecond: number;
  /** Deliveries in each 10 s of the run, and after it until drained. */
  perTenSeconds: number[];
  lagP50Ms: number;
  lagP99Ms: number;
  drainedAfterMs: number;
}

const ANSWER_MS = Number(process.env.BENCH_WEBHOOK_ANSWER_MS ?? 6);
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 60);
const WAITING = (process.env.BENCH_WEBHOOK_WAITING ?? '0,10000,100000').split(',').map(Number);
/** Events are committed in ticks of this many milliseconds, each tick's events in one transaction. */
const TICK_MS = 50;

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** A receiver answering 200 after ANSWER_MS (or never), recording each event's lag from its commit. */
async function receiver(hang: boolean) {
  const arrivals: { at: number; lag: number }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const at = Date.now();
      const event = JSON.parse(body) as { data: { committedAt: number } };
      arrivals.push({ at, lag: at - event.data.committedAt });
      if (!hang) setTimeout(() => res.writeHead(200).end(), ANSWER_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    arrivals,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

/**
 * A fresh database with two platforms (the measured one, the noisy one), each with a webhook endpoint, and a
 * worker-less instance of the product in this process that commits the events as the product's writers do.
 */
async function benchTenants(adminUrl: string, fastUrl: string, silentUrl: string) {
  const url = new URL(adminUrl);
  url.pathname = '/switchboard_bench_webhooks';
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('drop database if exists switchboard_bench_webhooks with (force)');
  await admin.query('create database switchboard_bench_webhooks');
  await admin.end();
  const config = loadConfig({
    ...{ DATABASE_URL: url.href, PORT: '0', LOG_LEVEL: 'warn', JOB_WORKER: 'false', SECRETS_KEY },
    ...{ ALLOW_HTTP_WEBHOOKS: 'true' },
  });
  const logger = createLogger('warn', 2);
  const database = await openDatabase(config, logger, 4);
  await migrate(database.orm);
  const writer = await startServer(config, database, logger);
  const events = ['message.status.updated' as const];
  const ids = await seed(
    database.orm.em.fork(),
    {
      platforms: [
        { ref: 'measured', name: 'Measured', domain: 'measured.example.com', webhooks: [{ url: fastUrl, events }] },
        { ref: 'noisy', name: 'Noisy', domain: 'noisy.example.com', webhooks: [{ url: silentUrl, events }] },
      ],
      users: [
        { ref: 'owner', platform: 'measured', email: 'owner@measured.example.com', name: 'Owner', role: 'owner' },
      ].map((user) => ({ ...user, platformAccess: true, apiKey: true })),
      channels: [{ ref: 'main', platform: 'measured', name: 'Bench', phone: '15550001111', users: ['owner'] }],
    },
    writer.services,
  );
  return { url: url.href, database, writer, ids };
}

type Bench = Awaited<ReturnType<typeof benchTenants>>;

/** A status event as a broadcast's status batch emits it, stamped with its commit time for the lag. */
function statusEvent(n: number, committedAt: number, channelId: string) {
  const data = { msgid: `wamid.bench${n}`, status: 'delivered', committedAt, channelId, to: '15550001111' };
  return { type: 'message.status.updated', timestamp: new Date(committedAt).toISOString(), data } as never;
}

/** Commits RATE events a second for SECONDS, a tick's events in one transaction; returns how many. */
async function produce(bench: Bench, platformId: string): Promise<number> {
  const perTick = Math.max(1, Math.round((RATE * TICK_MS) / 1000));
  const started = Date.now();
  let produced = 0;
  for (let tick = 0; Date.now() - started < SECONDS * 1000; tick++) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + tick * TICK_MS - Date.now())));
    await bench.database.orm.em.fork().transactional(async (tx) => {
      const channelId = bench.ids.channels!.main!;
      const events = Array.from({ length: perTick }, (_, i) => statusEvent(produced + i, Date.now(), channelId));
      await emitEvents({ em: tx }, platformId, events);
    });
    produced += perTick;
  }
  return produced;
}

/** One run with `waiting` deliveries of the noisy platform waiting on its silent endpoint. */
async function run(bench: Bench, fast: Awaited<ReturnType<typeof receiver>>, waiting: number): Promise<WebhookRun> {
  const noisyEndpoint = `(select id from webhook_endpoints where platform_id = '${bench.ids.platforms!.noisy!}')`;
  const client = new pg.Client({ connectionString: bench.url });
  await client.connect();
  try {
    await client.query(
      `insert into webhook_deliveries (id, endpoint_id, webhook_id, event_type, payload, next_attempt_at)
       select gen_random_uuid(), ${noisyEndpoint}, 'msg_' || replace(gen_random_uuid()::text, '-', ''),
         'message.status.updated', '{"type":"message.status.updated","data":{"committedAt":0}}', now()
       from generate_series(1, $1)`,
      [waiting],
    );
    await client.query('vacuum analyze webhook_deliveries');
    fast.arrivals.length = 0;
    const load = [loadavg()[0]!];
    const started = Date.now();
    const produced = await produce(bench, bench.ids.platforms!.measured!);
    const stoppedAt = Date.now();
    load.push(loadavg()[0]!);
    while (fast.arrivals.length < produced && Date.now() - stoppedAt < 300_000)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const drainedAfterMs = Math.max(0, (fast.arrivals.at(-1)?.at ?? stoppedAt) - stoppedAt);
    const perTenSeconds: number[] = [];
    for (const { at } of fast.arrivals) {
      const bucket = Math.floor((at - started) / 10_000);
      perTenSeconds[bucket] = (perTenSeconds[bucket] ?? 0) + 1;
    }
    const lags = fast.arrivals.map((arrival) => arrival.lag).sort((a, b) => a - b);
    await client.query(`delete from webhook_deliveries where endpoint_id = ${noisyEndpoint}`);
    return {
      waiting,
      load,
      producedPerSecond: Math.round(produced / ((stoppedAt - started) / 1000)),
      deliveredPerSecond: Math.round(
        fast.arrivals.filter((arrival) => arrival.at <= stoppedAt).length / ((stoppedAt - started) / 1000),
      ),
      perTenSeconds: Array.from(perTenSeconds, (count) => count ?? 0),
      lagP50Ms: quantile(lags, 0.5),
      lagP99Ms: quantile(lags, 0.99),
      drainedAfterMs,
    };
  } finally {
    await client.end();
  }
}

/** Milliseconds per call, the median of `times` calls of `query` inside one transaction (rolled back). */
async function timed(client: pg.Client, query: string, values: unknown[], times = 300): Promise<number> {
  const samples: number[] = [];
  await client.query('begin');
  for (let i = 0; i < times; i++) {
    const started = process.hrtime.bigint();
    await client.query(query, values);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  await client.query('rollback');
  return quantile(
    samples.sort((a, b) => a - b),
    0.5,
  );
}

/** The former share count (SHARE_WAITING_SQL, up to 10,000) and the turn tables' statement (jobs/fair-shares.ts). */
const FORMER_COUNT = `select count(*)::int from (select 1 from pgboss.job where name = $1 and group_id = $2
  and state < 'active' limit 10000) share_jobs`;
const TAKE_TURN = `with clock as (
    select coalesce((select served_turn from job_queue_turns where queue = $1), 0) as served),
  taken as (insert into job_share_turns as s (queue, share, next_turn) select $1, $2, served + 1 from clock
    on conflict (queue, share) do update set next_turn = greatest(s.next_turn, (select served from clock)) + 1
    returning s.next_turn - 1 as turn)
  select taken.turn - clock.served from taken, clock`;

export interface ShareCost {
  waiting: number;
  formerCountMs: number;
  turnMs: number;
}

/** Queueing one automation trigger's share: by the former count and by the turn tables, at 0 and 100,000 waiting. */
async function shareCosts(url: string): Promise<ShareCost[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const costs: ShareCost[] = [];
  try {
    for (const waiting of [0, 100_000]) {
      await client.query(
        `insert into pgboss.job (name, data, group_id, state) select 'automation.trigger', '{}', 'another-channel',
           'created' from generate_series(1, $1)`,
        [waiting],
      );
      await client.query('vacuum analyze pgboss.job_common');
      const args = ['automation.trigger', 'this-channel'];
      costs.push({
        waiting,
        formerCountMs: await timed(client, FORMER_COUNT, args),
        turnMs: await timed(client, TAKE_TURN, args),
      });
    }
    await client.query(`delete from pgboss.job where group_id = 'another-channel'`);
  } finally {
    await client.end();
  }
  return costs;
}

export interface WebhookFigures {
  answerMs: number;
  rate: number;
  seconds: number;
  runs: WebhookRun[];
  shares: ShareCost[];
}

/** The whole scenario on a scratch database of `adminUrl`'s server, against the product build in `dist`. */
export async function webhookBench(
  adminUrl: string,
  dist: string,
  artifacts: string,
  log: (line: string) => void,
): Promise<WebhookFigures> {
  const fast = await receiver(false);
  const silent = await receiver(true);
  const bench = await benchTenants(adminUrl, fast.url, silent.url);
  const apiKey = bench.ids.users!.owner!.apiKey!;
  const product = await startProduct(bench.url, apiKey, artifacts, dist, {
    ...{ ALLOW_HTTP_WEBHOOKS: 'true', SECRETS_KEY, LOG_LEVEL: 'warn' },
  });
  const runs: WebhookRun[] = [];
  try {
    for (const waiting of WAITING) {
      log(
        `webhooks: ${RATE} events/s for ${SECONDS} s to an endpoint answering in ${ANSWER_MS} ms, ${waiting} waiting`,
      );
      runs.push(await run(bench, fast, waiting));
    }
  } finally {
    await product.stop();
  }
  const shares = await shareCosts(bench.url);
  await bench.writer.close();
  await bench.database.close();
  fast.close();
  silent.close();
  return { answerMs: ANSWER_MS, rate: RATE, seconds: SECONDS, runs, shares };
}

/** The figures as Markdown tables. */
export function webhookReport(figures: WebhookFigures): string {
  const rows = figures.runs.map(
    (r) =>
      `| ${r.waiting.toLocaleString('en')} | ${r.producedPerSecond} | ${r.deliveredPerSecond} | ` +
      `${r.lagP50Ms}/${r.lagP99Ms} | ${r.drainedAfterMs} | ${r.perTenSeconds.join(', ')} | ` +
      `${r.load.map((l) => l.toFixed(1)).join('→')} |`,
  );
  const shares = figures.shares.map(
    (s) => `| ${s.waiting.toLocaleString('en')} | ${s.formerCountMs.toFixed(3)} | ${s.turnMs.toFixed(3)} |`,
  );
  return [
    `webhooks: ${figures.rate} events/s for ${figures.seconds} s, the endpoint answering in ${figures.answerMs} ms`,
    '',
    '| waiting (other platform) | produced/s | delivered/s | lag p50/p99 ms | drained after the load, ms | ' +
      'deliveries per 10 s | load |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'fair share of one automation trigger, median ms',
    '',
    '| waiting jobs of another channel | former count | turn tables |',
    '|---|---|---|',
    ...shares,
    '',
  ].join('\n');
}
