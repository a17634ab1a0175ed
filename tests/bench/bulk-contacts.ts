import pg from 'pg';
import { generateApiKey } from '../../apps/server/src/modules/api-keys/api-key-crypto.js';
import { nameLists, PHONE_PREFIXES, ZIPF_RANK_SQL } from './names.js';
import { cpuMs } from './servers.js';

const LABELS = ['vip', 'new', 'lead', 'customer', 'churned', 'partner', 'press', 'support'];
/** Contacts per insert statement when seeding (indexes dropped): chunks only show progress. */
const SEED_CHUNK = 100_000;

/**
 * Indexes to drop for a bulk load and rebuild after, each with the statements that do it: the secondary indexes
 * of contacts and contact_labels (not those behind constraints), and the primary keys of the search key tables,
 * which nothing refers to (the insert trigger writes several keys per contact: appending them and building each
 * index once is far faster than inserting them into B-trees a million times over).
 */
async function rebuiltIndexes(client: pg.Client) {
  const { rows } = await client.query<{ drop: string; create: string }>(
    `select format('drop index %I', i.indexname) as drop, i.indexdef as create from pg_indexes i
      where i.schemaname = 'public' and i.tablename in ('contacts', 'contact_labels')
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)
     union all
     select format('alter table %s drop constraint %I', c.conrelid::regclass, c.conname),
            format('alter table %s add constraint %I %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid))
       from pg_constraint c where c.contype = 'p' and c.conrelid::regclass::text like 'contact\\_name\\_%'`,
  );
  return rows;
}

/**
 * Loads `count` contacts into one channel with set-based SQL, in chunks so progress can be shown. Names are
 * `first surname` drawn Zipf-like from faker's lists (see names.ts), phones are unique (a bijection of the
 * contact's number behind a country code), a fifth of the contacts carry a label and a twentieth a second one.
 * The search keys are written set-based by the contacts insert trigger itself, chunk by chunk (the product's own
 * write path, so the seeded keys are the ones production would have). Indexes are dropped for the load and
 * rebuilt afterwards from their own definitions (see rebuiltIndexes), then everything is vacuumed and analyzed:
 * the key lookups are index-only scans, which need the visibility map.
 */
export async function bulkLoadContacts(
  databaseUrl: string,
  channelId: string,
  count: number,
  progress: (line: string) => void = () => undefined,
  /**
   * `import`: as an operator's import would, every index and trigger in place, one statement (its own transaction)
   * per `chunk` contacts; the indexes are neither dropped nor rebuilt.
   */
  { mode = 'seed', chunk = SEED_CHUNK }: { mode?: 'seed' | 'import'; chunk?: number } = {},
): Promise<{ backendCpuSeconds?: number }> {
  const { firstNames, surnames } = nameLists();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const backend = await backendCpu(client);
  try {
    await client.query(`set maintenance_work_mem = '256MB'`);
    const indexes = mode === 'seed' ? await rebuiltIndexes(client) : [];
    for (const index of indexes) await client.query(index.drop);

    await client.query(
      `insert into labels (channel_id, name, color, sort_order)
       select $1, name, '#' || lpad(to_hex((ord * 2654435) % 16777216), 6, '0'), ord
         from unnest($2::text[]) with ordinality as t(name, ord)
       on conflict (channel_id, name) do nothing`,
      [channelId, LABELS],
    );
    for (let start = 1; start <= count; start += chunk) {
      const end = Math.min(count, start + chunk - 1);
      await client.query('select setseed($1)', [start / (count + 1)]);
      await client.query(
        `insert into contacts (channel_id, name, phone, email, status, custom_fields, created_at, updated_at)
         select $1, p.first || ' ' || p.surname,
                ($4::text[])[1 + g % ${PHONE_PREFIXES.length}] || lpad(((g::bigint * 7919) % 1000000000)::text, 9, '0'),
                case when g % 3 = 0 then null else lower(p.first) || '.' || g || '@example.com' end,
                (array['active','active','active','active','blocked','unsubscribed'])[1 + g % 6],
                jsonb_build_object('Age', 18 + g % 60),
                now() - make_interval(secs => g), now() - make_interval(secs => g)
           from generate_series($2::int, $3::int) g,
                lateral (select ($5::text[])[${ZIPF_RANK_SQL('cardinality($5::text[])')} + 0 * g] as first,
                                ($6::text[])[${ZIPF_RANK_SQL('cardinality($6::text[])')} + 0 * g] as surname) p`,
        [channelId, start, end, PHONE_PREFIXES, firstNames, surnames],
      );
      if (end % SEED_CHUNK === 0 || end === count)
        progress(`  contacts and their search keys ${end.toLocaleString('en-US')} / ${count.toLocaleString('en-US')}`);
    }
    // Zipf-like over the labels too: label k is about twice as common as label k + 1.
    await client.query(
      `insert into contact_labels (contact_id, label_id)
       select c.id, l.id from contacts c
         join labels l on l.channel_id = c.channel_id
          and (l.sort_order = ${LABELS.length} - floor(log(2, 1 + abs(hashtext(c.phone)) % 255))::int
               or (abs(hashtext(c.phone)) % 20 = 0 and l.sort_order = ${LABELS.length}))
        where c.channel_id = $1 and abs(hashtext(c.phone) / 7) % 5 = 0
       on conflict do nothing`,
      [channelId],
    );
    if (indexes.length) progress('  rebuilding indexes');
    for (const index of indexes) await client.query(index.create);
    await client.query('vacuum analyze');
    return { backendCpuSeconds: backend() };
  } finally {
    await client.end();
  }
}

/**
 * The CPU time a connection's PostgreSQL backend has used since this call, in seconds, when the server runs on
 * this machine (read from /proc): the database's own work, whatever else shares the cores.
 */
export async function backendCpu(client: pg.Client): Promise<() => number | undefined> {
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  const used = () => {
    try {
      return cpuMs(rows[0]!.pid);
    } catch {
      return undefined;
    }
  };
  const before = used();
  return () => {
    const after = used();
    return before === undefined || after === undefined ? undefined : (after - before) / 1000;
  };
}

export interface BenchTenant {
  channelId: string;
  apiKeys: string[];
  msgids: string[];
}

/**
 * One platform and channel, `users` API users with one key each (all on that channel, so traffic can rotate
 * across their rate-limit budgets), and `messages` outbound messages for chat/message/status. The keys are kept
 * in a `bench_keys` table of the benchmark database: a key is only shown at creation, and a kept database is
 * reused between runs.
 */
export async function seedTenant(databaseUrl: string, users: number, messages: number): Promise<BenchTenant> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    const {
      rows: [platform],
    } = await client.query<{ id: string }>(
      `insert into platforms (name, domain) values ('Bench', 'bench.example.com') returning id`,
    );
    const {
      rows: [channel],
    } = await client.query<{ id: string }>(
      `insert into channels (platform_id, name, phone) values ($1, 'Bench', '14150000000') returning id`,
      [platform!.id],
    );
    const keys = Array.from({ length: users }, () => generateApiKey());
    await client.query(
      `with created as (
         insert into users (platform_id, email, name)
         select $1, 'bench' || n || '@bench.example.com', 'Bench user ' || n from generate_series(1, $2::int) n
         returning id, email),
       numbered as (select id, row_number() over (order by email) as n from created),
       keyed as (
         insert into api_keys (user_id, name, prefix, key_hash)
         select u.id, 'bench', k.prefix, k.key_hash from numbered u
           join unnest($3::text[], $4::text[]) with ordinality as k(prefix, key_hash, n) on k.n = u.n)
       insert into channel_users (channel_id, user_id) select $5, id from created`,
      [platform!.id, users, keys.map((k) => k.prefix), keys.map((k) => k.keyHash), channel!.id],
    );
    await client.query(`create table bench_keys (api_key text primary key)`);
    await client.query(`insert into bench_keys select unnest($1::text[])`, [keys.map((k) => k.apiKey)]);
    await client.query(
      `insert into messages (channel_id, msgid, direction, type, status, "to", created_at, updated_at)
       select $1, 'wamid.bench' || g, 'outbound', 'template', (array['accepted','sent','delivered','read'])[1 + g % 4],
              '4915100' || lpad(g::text, 6, '0'), now() - make_interval(secs => g), now() - make_interval(secs => g)
         from generate_series(1, $2::int) g`,
      [channel!.id, messages],
    );
    await client.query('commit');
    return { channelId: channel!.id, apiKeys: keys.map((k) => k.apiKey), msgids: msgidsOf(messages) };
  } finally {
    await client.end();
  }
}

const msgidsOf = (messages: number) =>
  Array.from({ length: Math.min(messages, 10_000) }, (_, i) => `wamid.bench${1 + ((i * 7919) % messages)}`);

/** The tenant of a database seeded earlier, or undefined when it was never completely seeded. */
export async function existingTenant(databaseUrl: string): Promise<BenchTenant | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ ready: boolean }>(`select to_regclass('bench_ready') is not null as ready`);
    if (!rows[0]!.ready) return undefined;
    const { rows: channels } = await client.query<{ id: string }>(`select id from channels where name = 'Bench'`);
    const { rows: keys } = await client.query<{ api_key: string }>(`select api_key from bench_keys order by api_key`);
    const { rows: counted } = await client.query<{ n: number }>(`select count(*)::int as n from messages`);
    return { channelId: channels[0]!.id, apiKeys: keys.map((k) => k.api_key), msgids: msgidsOf(counted[0]!.n) };
  } finally {
    await client.end();
  }
}

/** Marks a database as completely seeded: a run interrupted while seeding is not mistaken for a usable one. */
export async function markReady(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('create table bench_ready ()').finally(() => client.end());
}

/** Contacts to build search terms from: a fixed, spread-out sample (ids are random), so runs search alike. */
export async function sampleContacts(databaseUrl: string, count: number): Promise<{ name: string; phone: string }[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client
    .query<{ name: string; phone: string }>('select name, phone from contacts order by id limit $1', [count])
    .finally(() => client.end());
  return rows;
}
