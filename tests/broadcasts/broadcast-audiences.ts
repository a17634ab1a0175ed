import { sql } from '../helpers/database.js';

/** The phones of an audience: `count` numbers from `first` on, 15 digits at most. */
const audiencePhones = (first: number, count: number) => Array.from({ length: count }, (_, i) => String(first + i));

/**
 * `count` new active contacts of a channel under a label of their own (created), phones `first`, `first + 1`, …,
 * written set-based (three statements, the product's triggers in place): an audience of thousands in a second or
 * two instead of a seed file's contact-by-contact load. Returns the label's id and the phones.
 */
export async function seedAudience(
  databaseUrl: string,
  channelId: string,
  label: string,
  count: number,
  first: number,
): Promise<{ labelId: string; phones: string[] }> {
  const [created] = await sql<{ id: string }>(
    databaseUrl,
    'insert into labels (channel_id, name) values ($1, $2) returning id',
    [channelId, label],
  );
  await sql(
    databaseUrl,
    `insert into contacts (channel_id, name, phone)
     select $1, $2 || ' ' || i, ($3::bigint + i)::text from generate_series(0, $4::int - 1) i`,
    [channelId, label, first, count],
  );
  await sql(
    databaseUrl,
    `insert into contact_labels (contact_id, label_id)
     select c.id, $2 from contacts c
      where c.channel_id = $1 and c.phone::bigint between $3::bigint and $3::bigint + $4::int - 1`,
    [channelId, created!.id, first, count],
  );
  return { labelId: created!.id, phones: audiencePhones(first, count) };
}
