/**
 * What a stream's replay (`Last-Event-ID`) reads, on a scratch database of its own (created and dropped here):
 * `events` events of the replay window spread over TENANTS platforms (a channel each, every hundredth event of a
 * tenant its platform's own) and a quiet tenant, then the replay statement of a busy tenant's stream resuming an hour
 * back and of the quiet one's resuming at the window's start, explained with and without the replay indexes
 * (Migration20261206110000_workspace_events_replay_indexes).
 */
import pg from 'pg';
import { scratchDatabase } from './bench-database.js';

const TENANTS = 100;
/** One event every this many ms, the newest now: a million events span about 14 hours of the 24-hour window. */
const EVENT_SPACING_MS = 50;
const REPLAY_INDEXES = ['workspace_events_channel_cursor_index', 'workspace_events_platform_cursor_index'];

export interface ReplayPlan {
  executionMs: number;
  /** Shared buffers hit and read. */
  buffers: number;
  rows: number;
  /** The plan as EXPLAIN's text, for the record. */
  text: string;
}

/** One stream's replay: whose, from where, and its first page's plan without and with the replay indexes. */
export interface ReplayCase {
  name: string;
  /** Events the stream replays (its channel's and its platform's). */
  replayed: number;
  before: ReplayPlan;
  after: ReplayPlan;
}

export interface ReplayFigures {
  events: number;
  tenants: number;
  cases: ReplayCase[];
}

interface Stream {
  name: string;
  platformId: string;
  channelId: string;
  /** The stream's Last-Event-ID. */
  resumeAfter: number;
}
/**
 * The statement `replay` in event-stream.service.ts sends for a key with platform access, as MikroORM writes it
 * (its slow-query log with a threshold of 0 shows it): its channels' events and its platform's own after a cursor,
 * in cursor order, a page at a time.
 */
const REPLAY_PAGE = `select "w0"."id", "w0"."cursor", "w0"."platform_id", "w0"."channel_id", "w0"."type", "w0"."payload"
  from "workspace_events" as "w0"
 where "w0"."cursor" > $1 and "w0"."cursor" <= $2
   and ("w0"."channel_id" in ($3) or ("w0"."channel_id" is null and "w0"."platform_id" = $4))
 order by "w0"."cursor" asc limit 500`;

async function seedEvents(client: pg.Client, events: number): Promise<void> {
  await client.query(
    `insert into platforms (name, domain) select 'Replay ' || n, 'replay' || n || '.example.com'
       from generate_series(0, $1::int - 1) n`,
    [TENANTS],
  );
  await client.query(
    `insert into channels (platform_id, name, phone)
     select id, 'Replay', '1415' || lpad(row_number() over (order by domain)::text, 7, '0') from platforms`,
  );
  // The cursor is given here as the numbering trigger would give it at commit; the trigger is left out.
  await client.query(`set session_replication_role = replica`);
  await client.query(
    `with tenant as (select row_number() over (order by p.domain) - 1 as n, p.id as platform_id, c.id as channel_id
                       from platforms p join channels c on c.platform_id = p.id)
     insert into workspace_events (cursor, platform_id, channel_id, type, payload, created_at)
     select g, t.platform_id, case when (g / $3) % 100 = 0 then null else t.channel_id end, 'message.received',
            jsonb_build_object('type', 'message.received', 'data', jsonb_build_object('text', 'Event ' || g)),
            now() - make_interval(secs => ($1::int - g) * $2::float8 / 1000)
       from generate_series(1, $1::int) g join tenant t on t.n = g % $3`,
    [events, EVENT_SPACING_MS, TENANTS],
  );
  // A quiet tenant: ten events in the whole window.
  await client.query(
    `with platform as (insert into platforms (name, domain) values ('Quiet', 'quiet.example.com') returning id),
          channel as (insert into channels (platform_id, name, phone) select id, 'Quiet', '14159999999' from platform
                      returning id, platform_id)
     update workspace_events e set platform_id = c.platform_id, channel_id = c.id from channel c
      where e.cursor in (select g * ($1::int / 10) from generate_series(1, 10) g)`,
    [events],
  );
  await client.query(`reset session_replication_role`);
  await client.query(`select setval('workspace_events_cursor_seq', $1)`, [events]);
  await client.query('vacuum analyze workspace_events');
}

/** A busy tenant's stream resuming an hour back, and the quiet tenant's resuming at the start of the window. */
async function streams(client: pg.Client, events: number): Promise<Stream[]> {
  const tenant = async (domain: string) =>
    (
      await client.query<{ platformId: string; channelId: string }>(
        `select p.id as "platformId", c.id as "channelId" from platforms p join channels c on c.platform_id = p.id
          where p.domain = $1`,
        [domain],
      )
    ).rows[0]!;
  return [
    {
      name: `a tenant with 1% of the events, an hour back`,
      ...(await tenant('replay0.example.com')),
      resumeAfter: events - Math.round(3_600_000 / EVENT_SPACING_MS),
    },
    {
      name: 'a tenant with 10 events, from the start of the window',
      ...(await tenant('quiet.example.com')),
      resumeAfter: 0,
    },
  ];
}

async function explainReplay(client: pg.Client, values: unknown[]): Promise<ReplayPlan> {
  const explained = async (format: string) =>
    (await client.query<{ 'QUERY PLAN': unknown }>(`explain (analyze, buffers${format}) ${REPLAY_PAGE}`, values)).rows;
  // Once to warm the cache, as a server that replays streams all day has it.
  await client.query(REPLAY_PAGE, values);
  const [json] = await explained(', format json');
  const { Plan: plan, 'Execution Time': executionMs } = (
    json!['QUERY PLAN'] as [{ Plan: Record<string, number>; 'Execution Time': number }]
  )[0];
  const text = (await explained('')).map((row) => String(row['QUERY PLAN'])).join('\n');
  return {
    executionMs: Math.round(executionMs * 100) / 100,
    buffers: plan['Shared Hit Blocks']! + plan['Shared Read Blocks']!,
    rows: plan['Actual Rows']!,
    text,
  };
}

/** Runs the replay figures on a scratch database `switchboard_replay_<events>` of the server at `adminUrl`. */
export async function measureReplay(
  adminUrl: string,
  events: number,
  log: (line: string) => void,
): Promise<ReplayFigures> {
  const scratch = await scratchDatabase(adminUrl, `switchboard_replay_${events}`);
  const client = new pg.Client({ connectionString: scratch.url });
  try {
    await client.connect();
    log(`replay: ${events.toLocaleString('en-US')} events over ${TENANTS} tenants`);
    await seedEvents(client, events);
    const cases: (Stream & { values: unknown[]; replayed: number; after: ReplayPlan })[] = [];
    for (const stream of await streams(client, events)) {
      const { rows } = await client.query<{ replayed: number }>(
        `select count(*)::int as replayed from workspace_events where cursor > $1 and platform_id = $2`,
        [stream.resumeAfter, stream.platformId],
      );
      const values = [stream.resumeAfter, events, stream.channelId, stream.platformId];
      cases.push({ ...stream, values, replayed: rows[0]!.replayed, after: await explainReplay(client, values) });
    }
    for (const index of REPLAY_INDEXES) await client.query(`drop index "${index}"`);
    const figures: ReplayCase[] = [];
    for (const { name, values, replayed, after } of cases)
      figures.push({ name, replayed, before: await explainReplay(client, values), after });
    return { events, tenants: TENANTS, cases: figures };
  } finally {
    await client.end().catch(() => undefined);
    await scratch.drop();
  }
}

export function replayReport(figures: ReplayFigures): string {
  const row = ({ name, replayed, before, after }: ReplayCase) =>
    `| ${name} (${replayed} events) | ${before.executionMs} → ${after.executionMs} | ` +
    `${before.buffers.toLocaleString('en-US')} → ${after.buffers.toLocaleString('en-US')} | ${after.rows} |`;
  return [
    `replay, first page (500) of one stream: ${figures.events.toLocaleString('en-US')} events over ` +
      `${figures.tenants} tenants`,
    '',
    '| stream | execution ms, before → after | buffers, before → after | rows |',
    '|---|---|---|---|',
    ...figures.cases.map(row),
    '',
    ...figures.cases.flatMap(({ name, before, after }) => [
      `${name}, before:`,
      before.text,
      '',
      `${name}, after:`,
      after.text,
      '',
    ]),
    '',
  ].join('\n');
}
