import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACTS_SEARCH_COUNT_CAP } from '@switchboard/contract';
import { createLogger, loadConfig, migrate, openDatabase, type Database } from '@switchboard/server';
import { listContacts, type ContactQuery } from '../../apps/server/src/modules/contacts/contact.service.js';
import { bulkLoadContacts, seedTenant } from '../bench/bulk-contacts.js';
import { explain, withStatements } from '../bench/recorded-sql.js';
import { createFreshDatabase, sql } from '../helpers/database.js';

/**
 * The query plans of contacts/list at 100,000 contacts in one channel (faker names, Zipf-weighted, as the
 * benchmark seeds them): every statement the product runs for a listing or a search is explained by the real
 * PostgreSQL before it runs, as the product runs it (a prepared statement's generic plan) and as its parameters'
 * values would be planned as literals: both must scan alike. A listing reads the listing index; a name search reads
 * its key index alone (an index-only scan: in listing order for a short term, a range sorted or counted for a longer
 * one) and fetches only the page's contacts by id; a phone fragment reads the trigram index; nothing reads the
 * channel sequentially, and only a phone fragment too broad to sort walks the listing index.
 */
const CONTACTS = 100_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

const TABLES = ['contacts', 'contact_name_prefixes', 'contact_name_words'];

describe('contacts/list query plans at 100k contacts', { timeout: 300_000 }, () => {
  let database: Database;
  let client: pg.Client;
  let channelId: string;

  beforeAll(async () => {
    const url = await createFreshDatabase();
    database = await openDatabase(loadConfig({ DATABASE_URL: url }), createLogger('silent'), 2);
    await migrate(database.orm);
    ({ channelId } = await seedTenant(url, 1, 0));
    await bulkLoadContacts(url, channelId, CONTACTS);
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await database?.close();
  });

  /**
   * The scans of the contacts and key tables, as `node type [Backward]: index` (or the table for a scan without one).
   */
  const scansOf = (plan: PlanNode[]) =>
    plan
      .filter(
        (n) => TABLES.includes(n['Relation Name'] ?? '') || TABLES.some((t) => n['Index Name']?.startsWith(`${t}_`)),
      )
      .map((n) => {
        const direction = n['Scan Direction'] === 'Backward' ? ' Backward' : '';
        return `${n['Node Type']}${direction}: ${n['Index Name'] ?? n['Relation Name']}`;
      });

  /**
   * Lists through the product's service. Each statement is explained (as sent) first, with its generic plan and
   * the plan of its values as literals, which must scan alike: `scans` has one entry per statement, the distinct
   * scans of its plan, sorted.
   */
  async function plansOf(query: Partial<ContactQuery>) {
    const scans: string[][] = [];
    const { result: reply } = await withStatements(
      database.orm.em.fork(),
      client,
      (ctx) => listContacts(ctx, channelId, { page: 1, limit: 50, ...query }),
      async (statement) => {
        const scansIn = async (mode: 'force_custom_plan' | 'force_generic_plan') => {
          const [plan] = (await explain<[{ Plan: PlanNode }]>(client, statement, 'format json', mode))[0]!;
          return [...new Set(scansOf(nodesOf(plan.Plan)))].sort();
        };
        const custom = await scansIn('force_custom_plan');
        expect(await scansIn('force_generic_plan')).toEqual(custom);
        scans.push(custom);
      },
    );
    return { scans, reply };
  }

  async function one(statement: string, params: unknown[] = []) {
    const [row] = await sql<{ value: string }>(database.url, statement, params);
    return row!.value;
  }

  /** A short name term: its prefix key read backwards (index entries only), then the page's contacts by id. */
  const PREFIX_LOOKUP = ['Index Only Scan Backward: contact_name_prefixes_pkey', 'Index Scan: contacts_pkey'];
  /** A longer name term: one range of the word keys (index entries only), then the page's contacts by id. */
  const WORD_RANGE = ['Index Only Scan: contact_name_words_pkey', 'Index Scan: contacts_pkey'];
  /** A phone fragment of 3 digits or more: a bitmap of the trigram index, rechecked on the rows. */
  const PHONE_TRIGRAMS = ['Bitmap Heap Scan: contacts', 'Bitmap Index Scan: contacts_phone_trgm_index'];

  it('runs its statements as prepared statements, planned once per connection', async () => {
    // One connection, so that the statements it has prepared are the ones this session lists.
    const single = await openDatabase(loadConfig({ DATABASE_URL: database.url }), createLogger('silent'), 1);
    try {
      for (const search of [undefined, 'Ma', 'Mari', '55-1', '7'])
        await listContacts({ em: single.orm.em.fork() } as never, channelId, { page: 1, limit: 50, search });
      const prepared = await single.orm.em
        .fork()
        .execute<{ name: string; generic_plans: number }[]>(
          `select name, generic_plans from pg_prepared_statements order by name`,
        );
      // The listing, a short and a longer name term, a phone fragment and one digit; a broad term's walk is planned
      // for its values.
      expect(prepared.map((p) => p.name)).toEqual(Array(5).fill(expect.stringMatching(/^prepared_[\w-]{27}$/)));
      for (const statement of prepared) expect(Number(statement.generic_plans)).toBeGreaterThan(0);
    } finally {
      await single.close();
    }
  });

  it('reads a page straight off the listing index', async () => {
    const { scans, reply } = await plansOf({ page: 3 });
    expect(reply.data).toHaveLength(50);
    expect(reply.pagination.total).toBe(CONTACTS);
    expect(scans).toEqual([['Index Scan: contacts_channel_recent_index']]);
  });

  it('finds a short term by one prefix key, in listing order, however broad', async () => {
    const { scans, reply } = await plansOf({ search: 'Ma', page: 3 });
    expect(reply.data).toHaveLength(50);
    expect(reply.pagination.total).toBe(CONTACTS_SEARCH_COUNT_CAP);
    expect(scans).toEqual([PREFIX_LOOKUP]);
  });

  it('finds a whole name by one range of word keys, sorting its few matches', async () => {
    const name = await one(`select name as value from contacts group by name order by count(*), name limit 1`);
    const { scans, reply } = await plansOf({ search: name });
    expect(reply.data.map((c) => c.name)).toContain(name);
    expect(scans).toEqual([WORD_RANGE]);
  });

  it('finds a 4-letter word prefix by one range of word keys', async () => {
    const { scans, reply } = await plansOf({ search: 'Mari' });
    expect(reply.data).toHaveLength(50);
    expect(scans[0]).toEqual(WORD_RANGE);
  });

  it('counts the commonest surname to the cap off its word range, and pages it off its prefix key', async () => {
    const surname = await one(
      `select split_part(name, ' ', -1) as value from contacts group by 1 order by count(*) desc limit 1`,
    );
    const { scans, reply } = await plansOf({ search: surname, page: 3 });
    expect(reply.data).toHaveLength(50);
    for (const contact of reply.data) expect(contact.name.toLowerCase()).toContain(surname.toLowerCase());
    expect(reply.pagination.total).toBe(CONTACTS_SEARCH_COUNT_CAP);
    expect(scans).toEqual([WORD_RANGE, PREFIX_LOOKUP]);
  });

  it('rechecks a term longer than the stored words on the contacts it looks up', async () => {
    const name = await one(`select name as value from contacts where char_length(name) > 26 order by id limit 1`);
    const { scans, reply } = await plansOf({ search: name });
    expect(reply.data.map((c) => c.name)).toContain(name);
    expect(scans).toEqual([WORD_RANGE]);
  });

  it('finds a typed phone fragment by the trigram index, and tries it on names', async () => {
    const phone = await one(`select phone as value from contacts order by id limit 1`);
    const digits = phone.slice(3, 8);
    const { scans, reply } = await plansOf({ search: `${digits.slice(0, 2)}-${digits.slice(2)}` });
    expect(reply.data.length).toBeGreaterThan(0);
    for (const contact of reply.data) expect(contact.phone).toContain(digits);
    expect(scans).toEqual([[...PHONE_TRIGRAMS, ...WORD_RANGE].sort()]);
  });

  it('walks the listing index for a fragment too wide to sort (one digit), after counting to the cap', async () => {
    const { scans, reply } = await plansOf({ search: '7' });
    expect(reply.data).toHaveLength(50);
    for (const contact of reply.data) expect(contact.phone).toContain('7');
    expect(reply.pagination.total).toBe(CONTACTS_SEARCH_COUNT_CAP);
    expect(scans).toEqual([
      [...PREFIX_LOOKUP, 'Index Scan: contacts_channel_recent_index'].sort(),
      ['Index Scan: contacts_channel_recent_index'],
    ]);
  });
});
