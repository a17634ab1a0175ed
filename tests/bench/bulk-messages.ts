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
