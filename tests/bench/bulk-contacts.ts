import pg from 'pg';

const FIRST_NAMES = [
  'Ada', 'Grace', 'Alan', 'Linus', 'Margaret', 'Katherine', 'Edsger', 'Barbara', 'Donald', 'Frances',
  'John', 'Radia', 'Ken', 'Dennis', 'Sophie', 'Tim', 'Hedy', 'Claude', 'Shafi', 'Leslie',
  'Niklaus', 'Jean', 'Guido', 'Bjarne', 'Anita', 'Karen', 'Vint', 'Adele', 'Whitfield', 'Evelyn',
  'Carol', 'Mary', 'Joan', 'Ivan', 'Robin', 'Dana', 'Cynthia', 'Yukihiro', 'James', 'Lynn',
];
/** Surnames are three syllables: 10 × 10 × 10 = 1,000 distinct ones, so one surname matches ~0.1% of contacts. */
const SYLLABLES = [
  ['kor', 'van', 'mel', 'tis', 'bra', 'lun', 'dor', 'fen', 'gal', 'hul'],
  ['a', 'e', 'i', 'o', 'u', 'ar', 'en', 'is', 'ol', 'um'],
  ['nd', 'th', 'ck', 'rs', 'lt', 'mp', 'ss', 'ng', 'x', 'z'],
];
const LABELS = ['vip', 'new', 'lead', 'customer', 'churned', 'partner', 'press', 'support'];

const sqlArray = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;

/** The contact with sequence number `n`: what the bench searches for. */
export function benchContact(n: number) {
  const pick = (list: string[], i: number) => list[i % list.length]!;
  const surname = SYLLABLES.map((list, i) => pick(list, Math.floor(n / (40 * 10 ** i)))).join('');
  return {
    name: `${pick(FIRST_NAMES, n)} ${surname[0]!.toUpperCase()}${surname.slice(1)}`,
    phone: String(14_150_000_000 + n * 37),
  };
}

/**
 * Loads `count` contacts (a fifth of them labelled) into one channel with set-based SQL. Secondary indexes are
 * dropped for the load and rebuilt afterwards from their own definitions (building a GIN index once is far
 * faster than updating it a million times), then the tables are vacuumed and analyzed as autovacuum would.
 */
export async function bulkLoadContacts(databaseUrl: string, channelId: string, count: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`set maintenance_work_mem = '256MB'`);
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `select i.indexname as name, i.indexdef as definition from pg_indexes i
        where i.tablename in ('contacts', 'contact_labels')
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    );
    for (const index of indexes) await client.query(`drop index "${index.name}"`);

    await client.query(
      `insert into labels (channel_id, name, color, sort_order)
       select $1, name, '#' || lpad(to_hex((ord * 2654435) % 16777216), 6, '0'), ord
         from unnest(${sqlArray(LABELS)}::text[]) with ordinality as t(name, ord)`,
      [channelId],
    );
    await client.query(
      `insert into contacts (channel_id, name, phone, email, status, custom_fields, created_at, updated_at)
       select $1,
              (${sqlArray(FIRST_NAMES)})[1 + g % 40] || ' ' || initcap(
                (${sqlArray(SYLLABLES[0]!)})[1 + (g / 40) % 10] ||
                (${sqlArray(SYLLABLES[1]!)})[1 + (g / 400) % 10] ||
                (${sqlArray(SYLLABLES[2]!)})[1 + (g / 4000) % 10]),
              (14150000000 + g::bigint * 37)::text,
              case when g % 3 = 0 then null else 'contact' || g || '@example.com' end,
              (array['active','active','active','active','blocked','unsubscribed'])[1 + g % 6],
              jsonb_build_object('Age', 18 + g % 60),
              now() - make_interval(secs => g), now() - make_interval(secs => g)
         from generate_series(1, $2::int) g`,
      [channelId, count],
    );
    await client.query(
      `insert into contact_labels (contact_id, label_id)
       select c.id, l.id from contacts c
         join labels l on l.channel_id = c.channel_id and l.sort_order = 1 + abs(hashtext(c.phone)) % ${LABELS.length}
        where c.channel_id = $1 and abs(hashtext(c.phone)) % 5 = 0`,
      [channelId],
    );

    for (const index of indexes) await client.query(index.definition);
    await client.query('vacuum analyze contacts');
    await client.query('vacuum analyze contact_labels');
    await client.query('analyze labels');
  } finally {
    await client.end();
  }
}
