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
 * channel's messages or conversations.
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
  });
  afterAll(async () => {
    await client?.end();
    await database?.close();
  });

  /** Each statement's scans of messages and conversations and whether it sorts anything, as PostgreSQL plans it. */
  async function plansOf<T>(run: Parameters<typeof withStatements<T>>[2]) {
    const plans: { scans: string[]; sorts: boolean }[] = [];
    const { result } = await withStatements(database.orm.em.fork(), client, run, async (statement) => {
      const [plan] = (await explain<[{ Plan: PlanNode }]>(client, statement, 'format json'))[0]!;
      const nodes = nodesOf(plan.Plan);
      plans.push({
        scans: nodes
          .filter((n) => ['messages', 'conversations'].includes(n['Relation Name'] ?? ''))
          .map((n) => `${n['Node Type']}: ${n['Index Name'] ?? n['Relation Name']}`),
        sorts: nodes.some((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort'),
      });
    });
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

  it('reads the inbox off the conversations index, its last messages by primary key', async () => {
    const { result, plans } = await conversations({});
    expect(result.data).toHaveLength(50);
    expect(result.pagination.total).toBe(CONTACTS);
    expect(plans[0]).toEqual({
      scans: ['Index Scan: conversations_channel_recent_index', 'Index Scan: messages_pkey'],
      sorts: false,
    });
  });

  it('reads the unread inbox off its partial index', async () => {
    const { result, plans } = await conversations({ unread: true });
    expect(result.pagination.total).toBe(CONTACTS / 10);
    expect(result.data.every((c) => c.unreadCount === 1)).toBe(true);
    expect(plans[0]).toEqual({
      scans: ['Index Scan: conversations_channel_unread_index', 'Index Scan: messages_pkey'],
      sorts: false,
    });
  });
});
