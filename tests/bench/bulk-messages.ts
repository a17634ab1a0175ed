import pg from 'pg';

/**
 * Gives each contact of the channel `perContact` messages, alternating inbound and outbound, a minute apart, in
 * chunks of contacts; the newest conversations are the newest contacts', and every tenth has its last inbound message
 * unread. The rows go through the product's own write
 * path for conversations (the row triggers on `messages` keep the inbox), so the seeded inbox is the one production
 * would hold. Then vacuumed and analyzed.
 */
export async function bulkLoadMessages(
  databaseUrl: string,
  channelId: string,
  perContact: number,
  progress: (line: string) => void = () => undefined,
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from contacts where channel_id = $1',
      [channelId],
    );
    const contacts = rows[0]!.n;
    const chunk = 10_000;
    for (let offset = 0; offset < contacts; offset += chunk) {
      await client.query(
        `insert into messages (channel_id, contact_id, msgid, direction, type, status, "from", "to", body, provider,
                               created_at, updated_at)
         select $1, c.id, 'wamid.bulk' || c.n || '.' || g, d.direction, 'text',
                case when d.direction = 'inbound' and c.n % 10 = 0 and g >= $2 - 2 then 'delivered'
                     when d.direction = 'inbound' then 'read' else 'delivered' end,
                case when d.direction = 'inbound' then c.phone end, case when d.direction = 'outbound' then c.phone end,
                'Message ' || g, 'sandbox', t.at, t.at
           from (select id, phone, row_number() over (order by created_at, id) as n
                   from contacts where channel_id = $1 order by created_at, id offset $3 limit $4) c,
                generate_series(0, $2 - 1) g,
                lateral (select case when g % 2 = 0 then 'inbound' else 'outbound' end as direction) d,
                lateral (select now() - make_interval(mins => ($5::int - c.n::int) * $2::int + ($2 - g)) as at) t`,
        [channelId, perContact, offset, chunk, contacts],
      );
      progress(
        `  messages of ${Math.min(contacts, offset + chunk).toLocaleString('en-US')} / ${contacts.toLocaleString('en-US')} contacts`,
      );
    }
    for (const table of ['messages', 'conversations']) await client.query(`vacuum analyze ${table}`);
  } finally {
    await client.end();
  }
}
