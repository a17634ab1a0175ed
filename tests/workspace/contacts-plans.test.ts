import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACTS_SEARCH_COUNT_CAP } from '@switchboard/contract';
import { createLogger, loadConfig, migrate, openDatabase, type Database } from '@switchboard/server';
import { listContacts, type ContactQuery } from '../../apps/server/src/modules/contacts/contact.service.js';
import type { ServiceContext } from '../../apps/server/src/kit/context.js';
import { bulkLoadContacts, seedTenant } from '../bench/bulk-contacts.js';
import { createFreshDatabase, sql } from '../helpers/database.js';

/**
 * The query plans of contacts/list at 100,000 contacts in one channel (faker names, Zipf-weighted, as the
 * benchmark seeds them): every statement the product runs for a listing or an indexable search is explained by
 * the real PostgreSQL before it runs, and none may read the channel sequentially.
 */
const CONTACTS = 100_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

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

  /** Lists through the product's service; each statement is explained (as sent, parameters inlined) first. */
  async function plansOf(query: Partial<ContactQuery>) {
    const em = database.orm.em.fork();
    const plans: PlanNode[][] = [];
    const explaining = {
      execute: async (statement: string, params: unknown[] = []) => {
        const [row] = await em.execute<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`explain (format json) ${statement}`, params);
        plans.push(nodesOf(row!['QUERY PLAN'][0].Plan));
        return em.execute(statement, params);
      },
    };
    const ctx = { em: explaining } as unknown as ServiceContext;
    const reply = await listContacts(ctx, channelId, { page: 1, limit: 50, ...query });
    return { plans, reply };
  }

  const scansOf = (plan: PlanNode[]) => plan.filter((n) => n['Relation Name'] === 'contacts' || n['Index Name']?.startsWith('contacts_'));
  const indexesOf = (plan: PlanNode[]) => scansOf(plan).map((n) => n['Index Name'] ?? n['Node Type']);
  const expectNoSequentialScan = (plans: PlanNode[][]) => {
    for (const plan of plans) expect(scansOf(plan).map((n) => n['Node Type'])).not.toContain('Seq Scan');
  };

  async function one(statement: string, params: unknown[] = []) {
    const [row] = await sql<{ value: string }>(database.url, statement, params);
    return row!.value;
  }

  it('reads a page straight off the listing index', async () => {
    const { plans, reply } = await plansOf({ page: 3 });
    expect(reply.data).toHaveLength(50);
    expect(reply.pagination.total).toBe(CONTACTS);
    expect(plans).toHaveLength(1);
    expect(indexesOf(plans[0]!)).toEqual(['contacts_channel_recent_index']);
  });

  it('finds a whole name through the name trigram index', async () => {
    const name = await one(`select name as value from contacts group by name order by count(*), name limit 1`);
    const { plans, reply } = await plansOf({ search: name });
    expect(reply.data.map((c) => c.name)).toContain(name);
    expect(indexesOf(plans[0]!)).toContain('contacts_name_trgm_index');
    expectNoSequentialScan(plans);
  });

  it('finds a typed phone fragment through both trigram indexes', async () => {
    const phone = await one(`select phone as value from contacts order by id limit 1`);
    // Two digits, a dash, two digits: no three in a row, yet pg_trgm still takes trigrams from it for the name.
    const digits = phone.slice(3, 7);
    const { plans, reply } = await plansOf({ search: `${digits.slice(0, 2)}-${digits.slice(2)}` });
    expect(reply.data.length).toBeGreaterThan(0);
    for (const contact of reply.data) expect(contact.phone).toContain(digits);
    expect(indexesOf(plans[0]!)).toEqual(expect.arrayContaining(['contacts_name_trgm_index', 'contacts_phone_trgm_index']));
    expectNoSequentialScan(plans);
  });

  it('counts the commonest surname to the cap, then reads its page off the listing index', async () => {
    const surname = await one(`select split_part(name, ' ', -1) as value from contacts group by 1 order by count(*) desc limit 1`);
    const { plans, reply } = await plansOf({ search: surname });
    expect(reply.data).toHaveLength(50);
    expect(reply.pagination.total).toBe(CONTACTS_SEARCH_COUNT_CAP);
    expect(plans).toHaveLength(2);
    expect(indexesOf(plans[1]!)).toEqual(['contacts_channel_recent_index']);
    expectNoSequentialScan(plans);
  });

  it('pages and counts a surname under the cap in one statement through the trigram index', async () => {
    const surname = await one(
      `select split_part(name, ' ', -1) as value from contacts group by 1 having count(*) between 100 and 500 order by count(*) desc limit 1`,
    );
    const { plans, reply } = await plansOf({ search: surname });
    expect(reply.data).toHaveLength(50);
    expect(reply.pagination.total).toBeGreaterThanOrEqual(100);
    expect(plans).toHaveLength(1);
    expect(indexesOf(plans[0]!)).toContain('contacts_name_trgm_index');
    expectNoSequentialScan(plans);
  });
});
