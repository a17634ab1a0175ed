import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, loadConfig, migrate, openDatabase, type Database } from '@switchboard/server';
import {
  listConversations,
  listMessages,
  type ConversationsQuery,
  type MessagesQuery,
} from '../../apps/server/src/modules/conversations/conversation.service.js';
import { bulkLoadContacts, seedTenant } from '../bench/bulk-contacts.js';
import { bulkLoadMessages } from '../bench/bulk-messages.js';
import { explain, withStatements } from '../bench/recorded-sql.js';
import { createFreshDatabase, sql } from '../helpers/database.js';

/**
 * The query plans of chat/messages/list and chat/conversations/list at 100,000 messages (10,000 contacts, ten
 * messages each, every contact a conversation): a page is read off its index in listing order, never by sorting the
 * channel's messages or conversations; an inbox page reads `conversations` alone (its rows carry the contact and
 * the newest message), each filter off the index that matches it. Plans are of the statements as the server runs
 * them (prepared, generic plans).
 */
const CONTACTS = 10_000;
const PER_CONTACT = 10;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describe('conversation query plans at 100k messages', { timeout: 300_000 }, () => {
  let database: Database;
  let client: pg.Client;
  let channelId: string;
  let contactId: string;

  beforeAll(async () => {
    const url = await createFreshDatabase();
    database = await openDatabase(loadConfig({ DATABASE_URL: url }), createLogger('silent'), 2);
    await migrate(database.orm);
    ({ channelId } = await seedTenant(url, 1, 0));
    await bulkLoadContacts(url, channelId, CONTACTS);
    await bulkLoadMessages(url, channelId, PER_CONTACT);
    [{ id: contactId }] = (await sql(url, 'select id from contacts order by created_at limit 1 offset 5000')) as [
      { id: string },
    ];
    client = new pg.Client({ connectionString: url });
    await client.connect();
  }, 300_000);
  afterAll(async () => {
    await client?.end();
    await database?.close();
  });

  /**
   * Each statement's scans of messages, conversations and contacts and whether it sorts, as PostgreSQL plans it
   * (explained once the service is done: it runs its statements concurrently).
   */
  async function plansOf<T>(run: Parameters<typeof withStatements<T>>[2]) {
    const plans: { scans: string[]; sorts: boolean }[] = [];
    const { result, statements } = await withStatements(database.orm.em.fork(), client, run);
    for (const statement of statements) {
      const [plan] = (await explain<[{ Plan: PlanNode }]>(client, statement, 'format json'))[0]!;
      const nodes = nodesOf(plan.Plan);
      plans.push({
        scans: nodes
          .filter((n) => ['messages', 'conversations', 'contacts'].includes(n['Relation Name'] ?? ''))
          .map((n) => `${n['Node Type']}: ${n['Index Name'] ?? n['Relation Name']}`),
        sorts: nodes.some((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort'),
      });
    }
    return { result, plans };
  }
  const messages = (query: Partial<MessagesQuery>) =>
    plansOf((ctx) => listMessages(ctx, channelId, { page: 1, limit: 50, ...query }));
  const conversations = (query: Partial<ConversationsQuery>) =>
    plansOf((ctx) => listConversations(ctx, channelId, { page: 1, limit: 50, ...query }));

  it('holds the data it claims to', async () => {
    const [row] = await sql(database.url, 'select count(*)::int as n from messages where channel_id = $1', [channelId]);
    expect(row!.n).toBe(CONTACTS * PER_CONTACT);
  });

  it('reads one conversation’s page off the conversation index, newest first, without a sort', async () => {
    const { result, plans } = await messages({ contactId });
    expect(result.data).toHaveLength(PER_CONTACT);
    expect(result.pagination.total).toBe(PER_CONTACT);
    const times = result.data.map((m) => m.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(plans[0]).toEqual({ scans: ['Index Scan: messages_conversation_index'], sorts: false });
    expect(plans[1]!.scans.every((scan) => scan.endsWith('messages_conversation_index'))).toBe(true);
  });

  it('reads one direction of a conversation off the same index', async () => {
    const { result, plans } = await messages({ contactId, direction: 'inbound', limit: 2 });
    expect(result.data.map((m) => m.direction)).toEqual(['inbound', 'inbound']);
    expect(plans[0]).toEqual({ scans: ['Index Scan: messages_conversation_index'], sorts: false });
  });

  it('reads a page of the channel’s messages off the channel index', async () => {
    const { result, plans } = await messages({ page: 3 });
    expect(result.data).toHaveLength(50);
    expect(plans[0]).toEqual({ scans: ['Index Scan: messages_channel_recent_index'], sorts: false });
  });

  it('reads the inbox off the conversations index alone: no contact or message looked up', async () => {
    const { result, plans } = await conversations({});
    expect(result.data).toHaveLength(50);
    expect(result.pagination.total).toBe(CONTACTS);
    expect(plans[0]).toEqual({ scans: ['Index Scan: conversations_channel_recent_index'], sorts: false });
  });

  it('reads the unread inbox off its partial index', async () => {
    const { result, plans } = await conversations({ unread: true });
    expect(result.pagination.total).toBe(CONTACTS / 10);
    expect(result.data.every((c) => c.unreadCount === 1)).toBe(true);
    expect(plans[0]).toEqual({ scans: ['Index Scan: conversations_channel_unread_index'], sorts: false });
  });

  describe('the lifecycle filters (status, assignee), each off its own index, totals exact', () => {
    let userId: string;
    beforeAll(async () => {
      [{ id: userId }] = (await sql(database.url, 'select id from users order by id limit 1')) as [{ id: string }];
      // A quarter of the conversations in each status; every third one assigned.
      await sql(
        database.url,
        `update conversations set
           status = (array['open', 'pending', 'resolved', 'snoozed'])[1 + abs(hashtext(contact_id::text)) % 4],
           snoozed_until = null,
           assignee_id = case when abs(hashtext(contact_id::text)) % 3 = 0 then $1::uuid end
         where channel_id = $2`,
        [userId, channelId],
      );
      await sql(
        database.url,
        `update conversations set snoozed_until = now() + interval '1 day' where status = 'snoozed'`,
      );
      await sql(database.url, 'analyze conversations');
    });
    const counted = async (where: string, params: unknown[] = []) =>
      (
        (await sql(database.url, `select count(*)::int as n from conversations where channel_id = $1 and ${where}`, [
          channelId,
          ...params,
        ])) as [{ n: number }]
      )[0].n;

    it('status: one status off conversations_channel_status_index, without a sort', async () => {
      const { result, plans } = await conversations({ status: 'pending' });
      expect(result.data.every((c) => c.status === 'pending')).toBe(true);
      expect(result.pagination.total).toBe(await counted(`status = 'pending'`));
      expect(plans[0]).toEqual({ scans: ['Index Scan: conversations_channel_status_index'], sorts: false });
      expect(plans[1]!.scans).toEqual([]);
    });

    it('status: several statuses off the listing order, filtered, without a sort', async () => {
      const { result, plans } = await conversations({ status: ['open', 'pending'] });
      expect(result.data.every((c) => ['open', 'pending'].includes(c.status))).toBe(true);
      expect(result.pagination.total).toBe(await counted(`status in ('open', 'pending')`));
      expect(plans[0]).toEqual({ scans: ['Index Scan: conversations_channel_recent_index'], sorts: false });
    });

    it('assigneeId: a user off conversations_channel_assignee_index, without a sort', async () => {
      const { result, plans } = await conversations({ assigneeId: userId });
      expect(result.data.every((c) => c.assignee?.id === userId)).toBe(true);
      expect(result.pagination.total).toBe(await counted('assignee_id = $2', [userId]));
      expect(plans[0]).toEqual({ scans: ['Index Scan: conversations_channel_assignee_index'], sorts: false });
    });

    it('assigneeId none off the assignee index, and status with an assignee off theirs, totals exact', async () => {
      const none = await conversations({ assigneeId: 'none' });
      expect(none.result.data.every((c) => c.assignee === null)).toBe(true);
      expect(none.result.pagination.total).toBe(await counted('assignee_id is null'));
      expect(none.plans[0]).toEqual({ scans: ['Index Scan: conversations_channel_assignee_index'], sorts: false });
      const both = await conversations({ status: 'resolved', assigneeId: userId });
      expect(both.result.data.every((c) => c.status === 'resolved' && c.assignee?.id === userId)).toBe(true);
      expect(both.result.pagination.total).toBe(await counted(`status = 'resolved' and assignee_id = $2`, [userId]));
      expect(both.plans[0]).toEqual({
        scans: ['Index Scan: conversations_channel_assignee_status_index'],
        sorts: false,
      });
    });
  });
});
