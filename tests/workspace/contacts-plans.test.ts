import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACTS_SEARCH_COUNT_CAP } from '@switchboard/contract';
import { createLogger, loadConfig, migrate, openDatabase, type Database } from '@switchboard/server';
import { listContacts, type ContactQuery } from '../../apps/server/src/modules/contacts/contact.service.js';
import { bulkLoadContacts, seedTenant } from '../bench/bulk-contacts.js';
import { withStatements } from '../bench/recorded-sql.js';
import { createFreshDatabase, sql } from '../helpers/database.js';

/**
 * The query plans of contacts/list at 100,000 contacts in one channel (faker names, Zipf-weighted, as the
 * benchmark seeds them): every statement the product runs for a listing or a search is explained by the real
 * PostgreSQL before it runs. A listing reads the listing index; a search reads its key index alone (an index-only
 * scan, already in listing order for names) and fetches only the page's contacts by id; nothing reads the channel
 * sequentially, and only a phone fragment too broad to sort walks the listing index.
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

const TABLES = ['contacts', 'contact_name_prefixes', 'contact_phone_suffixes'];

describe('contacts/list query plans at 100k contacts', { timeout: 300_000 }, () => {
  let database: Database;
  let channelId: string;

  beforeAll(async () => {
    const url = await createFreshDatabase();
    database = await openDatabase(loadConfig({ DATABASE_URL: url }), createLogger('silent'), 2);
    await migrate(database.orm);
    ({ channelId } = await seedTenant(url, 1, 0));
    await bulkLoadContacts(url, channelId, CONTACTS);
  });
  afterAll(() => database?.close());

  /** Lists through the product's service; each statement is explained (as sent) first. */
  async function plansOf(query: Partial<ContactQuery>) {
    const em = database.orm.em.fork();
    const plans: PlanNode[][] = [];
    const { result: reply } = await withStatements(
      em,
      (ctx) => listContacts(ctx, channelId, { page: 1, limit: 50, ...query }),
      async (statement) => {
        const [row] = await em.execute<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`explain (format json) ${statement}`);
        plans.push(nodesOf(row!['QUERY PLAN'][0].Plan));
      },
    );
    return { plans, reply };
  }

  /** The scans of the contacts and key tables, as `node type [Backward]: index` (or the table for a scan without one). */
  const scansOf = (plan: PlanNode[]) =>
    plan
      .filter((n) => TABLES.includes(n['Relation Name'] ?? '') || TABLES.some((t) => n['Index Name']?.startsWith(`${t}_`)))
      .map((n) => `${n['Node Type']}${n['Scan Direction'] === 'Backward' ? ' Backward' : ''}: ${n['Index Name'] ?? n['Relation Name']}`);

  async function one(statement: string, params: unknown[] = []) {
    const [row] = await sql<{ value: string }>(database.url, statement, params);
    return row!.value;
  }

  /** One statement: its key index read backwards (index entries only), then the page's contacts by primary key. */
  const NAME_LOOKUP = ['Index Only Scan Backward: contact_name_prefixes_pkey', 'Index Scan: contacts_pkey'];

  it('reads a page straight off the listing index', async () => {
    const { plans, reply } = await plansOf({ page: 3 });
    expect(reply.data).toHaveLength(50);
    expect(reply.pagination.total).toBe(CONTACTS);
    expect(plans.map(scansOf)).toEqual([['Index Scan: contacts_channel_recent_index']]);
  });

  it('finds a whole name by one key, in listing order', async () => {
    const name = await one(`select name as value from contacts group by name order by count(*), name limit 1`);
    const { plans, reply } = await plansOf({ search: name });
    expect(reply.data.map((c) => c.name)).toContain(name);
    expect(plans.map((plan) => [...new Set(scansOf(plan))])).toEqual([NAME_LOOKUP]);
  });

  it('finds a 4-letter word prefix by one key, in listing order', async () => {
    const { plans, reply } = await plansOf({ search: 'Mari' });
    expect(reply.data).toHaveLength(50);
    expect(plans.map((plan) => [...new Set(scansOf(plan))])).toEqual([NAME_LOOKUP]);
  });

  it('counts the commonest surname to the cap and pages it off the key index in the same statement', async () => {
    const surname = await one(`select split_part(name, ' ', -1) as value from contacts group by 1 order by count(*) desc limit 1`);
    const { plans, reply } = await plansOf({ search: surname, page: 3 });
    expect(reply.data).toHaveLength(50);
    expect(reply.pagination.total).toBe(CONTACTS_SEARCH_COUNT_CAP);
    expect(plans.map((plan) => [...new Set(scansOf(plan))])).toEqual([NAME_LOOKUP]);
  });

  it('rechecks a term longer than the stored prefixes on the contacts it looks up', async () => {
    const name = await one(`select name as value from contacts where char_length(name) > 26 order by id limit 1`);
    const { plans, reply } = await plansOf({ search: name });
    expect(reply.data.map((c) => c.name)).toContain(name);
    expect(plans.map((plan) => [...new Set(scansOf(plan))])).toEqual([NAME_LOOKUP]);
  });

  it('finds a typed phone fragment by one range of the phone key index, and tries it on names', async () => {
    const phone = await one(`select phone as value from contacts order by id limit 1`);
    const digits = phone.slice(3, 8);
    const { plans, reply } = await plansOf({ search: `${digits.slice(0, 2)}-${digits.slice(2)}` });
    expect(reply.data.length).toBeGreaterThan(0);
    for (const contact of reply.data) expect(contact.phone).toContain(digits);
    expect(plans.map((plan) => [...new Set(scansOf(plan))].sort())).toEqual([
      ['Index Only Scan Backward: contact_name_prefixes_pkey', 'Index Only Scan: contact_phone_suffixes_pkey', 'Index Scan: contacts_pkey'],
    ]);
  });

  it('walks the listing index for a phone fragment too broad to sort (one digit), after counting it to the cap', async () => {
    const { plans, reply } = await plansOf({ search: '7' });
    expect(reply.data).toHaveLength(50);
    for (const contact of reply.data) expect(contact.phone).toContain('7');
    expect(reply.pagination.total).toBe(CONTACTS_SEARCH_COUNT_CAP);
    expect(plans).toHaveLength(2);
    expect(scansOf(plans[1]!)).toContain('Index Scan: contacts_channel_recent_index');
    for (const plan of plans) expect(scansOf(plan).filter((scan) => scan.startsWith('Seq Scan'))).toEqual([]);
  });
});
