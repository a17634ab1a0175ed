import pg from 'pg';

/**
 * Gives `contacts` contacts of the channel (the oldest; all when left out) `perContact` messages each, alternating
 * inbound and outbound, a minute apart, in chunks of contacts; the newest conversations are those of the newest of
 * these contacts, and every tenth has its last inbound message unread. The rows go through the product's own write
 * path for conversations (the row triggers on `messages` keep the inbox), so the seeded inbox is the one production
 * would hold. Then vacuumed and analyzed.
 */
export async function bulkLoadMessages(
  databaseUrl: string,
  channelId: string,
  perContact: number,
  progress: (line: string) => void = () => undefined,
  contacts?: number,
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from contacts where channel_id = $1',
      [channelId],
    );
    const total = Math.min(rows[0]!.n, contacts ?? Infinity);
    const chunk = 10_000;
    for (let offset = 0; offset < total; offset += chunk) {
      await client.query(
        `insert into messages (channel_id, contact_id, msgid, direction, type, status, "from", "to", body, provider,
                               created_at, updated_at)
         select $1, c.id, 'wamid.bulk' || c.n || '.' || g, d.direction, 'text',
                case when d.direction = 'inbound' and c.n % 10 = 0 and g >= $2 - 2 then 'delivered'
                     when d.direction = 'inbound' then 'read' else 'delivered' end,
                case when d.direction = 'inbound' then c.phone end, case when d.direction = 'outbound' then c.phone end,
                'Message ' || g, 'sandbox', t.at, t.at
           from (select * from (select id, phone, row_number() over (order by created_at, id) as n
                   from contacts where channel_id = $1 order by created_at, id limit $5) c0
                  order by n offset $3 limit $4) c,
                generate_series(0, $2 - 1) g,
                lateral (select case when g % 2 = 0 then 'inbound' else 'outbound' end as direction) d,
                lateral (select now() - make_interval(mins => ($5::int - c.n::int) * $2::int + ($2 - g)) as at) t`,
        [channelId, perContact, offset, chunk, total],
      );
      const done = Math.min(total, offset + chunk).toLocaleString('en-US');
      progress(`  messages of ${done} / ${total.toLocaleString('en-US')} contacts`);
    }
    for (const table of ['messages', 'conversations']) await client.query(`vacuum analyze ${table}`);
  } finally {
    await client.end();
  }
}

/** Conversations per statement of spreadLifecycle: each counter row is then updated a bounded number of times. */
const LIFECYCLE_CHUNK = 2_000;

/**
 * Gives the channel's conversations the spread of an inbox that agents work: about 65% resolved, 20% open, 10%
 * pending and 5% snoozed (until tomorrow), 70% of them assigned to one of 20 of the channel's users, the rest
 * unassigned, by two hashes of the contact (the same on every run; the assignee's apart from the status's, so each
 * agent has conversations in every status). Through the product's row triggers on
 * `conversations`, in chunks, so the per-state counts are the ones production would keep. Returns the assignees.
 */
export async function spreadLifecycle(databaseUrl: string, channelId: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: users } = await client.query<{ id: string }>(
      `select u.id from users u join channel_users cu on cu.user_id = u.id where cu.channel_id = $1
        order by u.email limit 20`,
      [channelId],
    );
    const assignees = users.map((user) => user.id);
    for (let last = '00000000-0000-0000-0000-000000000000'; ;) {
      const { rows } = await client.query<{ last: string | null }>(
        `with batch as (select contact_id from conversations where channel_id = $1 and contact_id > $2::uuid
                          order by contact_id limit ${LIFECYCLE_CHUNK}),
              spread as (select contact_id, abs(hashtext(contact_id::text)) as h,
                                abs(hashtext(contact_id::text || '/assignee')) as a from batch),
              changed as (
                update conversations c
                   set status = case when s.h % 20 < 13 then 'resolved' when s.h % 20 < 17 then 'open'
                                     when s.h % 20 < 19 then 'pending' else 'snoozed' end,
                       resolved_at = case when s.h % 20 < 13 then c.last_activity_at end,
                       snoozed_until = case when s.h % 20 = 19 then now() + interval '1 day' end,
                       assignee_id = case when s.a % 10 < 7
                                          then ($3::uuid[])[1 + (s.a / 10) % array_length($3::uuid[], 1)] end
                  from spread s
                 where c.channel_id = $1 and c.contact_id = s.contact_id
                returning c.contact_id)
         select max(contact_id::text) as last from changed`,
        [channelId, last, assignees],
      );
      if (!rows[0]!.last) break;
      last = rows[0]!.last;
    }
    // The counters' rows were updated once per conversation: vacuumed as autovacuum would soon do.
    for (const table of ['conversations', 'conversation_state_counts', 'channel_conversation_counts'])
      await client.query(`vacuum analyze ${table}`);
    return assignees;
  } finally {
    await client.end();
  }
}

/** The assignees spreadLifecycle chose, for a database seeded earlier. */
export async function lifecycleAssignees(databaseUrl: string, channelId: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client
    .query<{ id: string }>(
      `select distinct assignee_id as id from conversations where channel_id = $1 and assignee_id is not null`,
      [channelId],
    )
    .finally(() => client.end());
  return rows.map((row) => row.id);
}

/**
 * Phones of `count` conversations of the channel: spread over the inbox (ids are random), or, with `openWindow`,
 * the most recently active ones whose customer wrote within the last 23 hours (a session message may go to them).
 */
export async function conversationPhones(databaseUrl: string, count: number, openWindow = false): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const order = openWindow
    ? "where c.last_inbound_at > now() - interval '23 hours' order by c.last_activity_at desc"
    : 'order by c.id';
  const { rows } = await client
    .query<{ phone: string }>(
      `select ct.phone from conversations c join contacts ct on ct.id = c.contact_id ${order} limit $1`,
      [count],
    )
    .finally(() => client.end());
  return rows.map((row) => row.phone);
}
