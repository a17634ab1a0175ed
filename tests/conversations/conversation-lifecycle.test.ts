import { receiveSandboxMessage } from '@switchboard/server';
import { afterAll, describe, expect } from 'vitest';
import { bodyOf, streamTracker } from '../helpers/event-stream.js';
import { expectError, expectForbidden, expectInvalid } from '../helpers/expect.js';
import { test as base } from '../helpers/test.js';

const ADA = '15550000001';
const streams = streamTracker();
afterAll(() => streams.closeAll());

interface Updated {
  type: 'conversation.updated';
  data: {
    channelId: string;
    conversation: { contactId: string; status: string; assignee: { id: string; name: string } | null };
    changes: Record<string, { previous: unknown; current: unknown }>;
    by: { type: string; id?: string };
  };
}

const test = base
  .extend('chat', ({ server, acme }) => server.client(acme.memberKey).workspace.chat)
  .extend(
    'adaWrites',
    ({ server, acme }) =>
      (text: string) =>
        receiveSandboxMessage({ em: server.database.orm.em.fork() }, server.jobs, {
          channelId: acme.mainChannelId,
          from: ADA,
          text,
        }),
  )
  .extend('updates', async ({ server, acme }) => {
    const stream = await streams.open(server.baseUrl, acme.ownerKey, { query: { types: 'conversation.updated' } });
    return {
      stream,
      /** The `n`-th conversation.updated event since this test opened its stream. */
      nth: async (n: number, timeoutMs?: number) =>
        bodyOf((await stream.events(n, timeoutMs))[n - 1]!) as unknown as Updated,
    };
  });

const ada = (channelId: string) => ({ channelId, phone: ADA });
const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('chat/conversations/manage and the conversation lifecycle', () => {
  test('starts open; resolving it sends conversation.updated by the user; a customer’s message reopens it', async ({
    acme,
    chat,
    adaWrites,
    updates,
  }) => {
    const listed = (await chat.conversations.list({ channelId: acme.mainChannelId })).data;
    expect(listed.find((c) => c.phone === ADA)).toMatchObject({ status: 'open', assignee: null, resolvedAt: null });

    const resolved = (await chat.conversations.manage({ ...ada(acme.mainChannelId), status: 'resolved' })).data;
    expect(resolved).toMatchObject({ phone: ADA, status: 'resolved', snoozedUntil: null });
    expect(Date.parse(resolved.resolvedAt!)).toBeGreaterThan(Date.now() - 60_000);
    const first = await updates.nth(1);
    expect(first.data).toMatchObject({
      channelId: acme.mainChannelId,
      conversation: { contactId: resolved.contactId, status: 'resolved' },
      changes: { status: { previous: 'open', current: 'resolved' } },
      by: { type: 'user', id: acme.memberId },
    });

    // An outbound message changes no status.
    await chat.message.send({ channelId: acme.mainChannelId, to: ADA, text: 'Glad to help!' });
    expect((await chat.conversations.list({ channelId: acme.mainChannelId, status: 'resolved' })).data).toHaveLength(1);

    await adaWrites('One more question…');
    const second = await updates.nth(2);
    expect(second.data).toMatchObject({
      conversation: { status: 'open' },
      changes: { status: { previous: 'resolved', current: 'open' } },
      by: { type: 'system' },
    });
    const reopened = (await chat.conversations.list({ channelId: acme.mainChannelId, status: 'open' })).data;
    expect(reopened.find((c) => c.phone === ADA)).toMatchObject({ status: 'open', resolvedAt: null });
    // Writing again to an open conversation changes nothing.
    await adaWrites('Still there?');
    await chat.conversations.manage({ ...ada(acme.mainChannelId), status: 'pending' });
    expect((await updates.nth(3)).data.changes).toEqual({ status: { previous: 'open', current: 'pending' } });
    await adaWrites('Hello?');
    expect((await updates.nth(4)).data).toMatchObject({
      changes: { status: { previous: 'pending', current: 'open' } },
      by: { type: 'system' },
    });
  });

  test('a snooze needs a future snoozedUntil within 90 days, and runs out by itself within 5 s', async ({
    acme,
    chat,
    updates,
  }) => {
    const at = ada(acme.mainChannelId);
    // What the types refuse (tests/sdk/typing/first-day.ts), sent anyway: the server refuses it too.
    const untyped = chat.conversations.manage as (params: object) => Promise<unknown>;
    await expectInvalid(untyped({ ...at, status: 'snoozed' }), 'snoozedUntil', 'is required');
    await expectInvalid(
      chat.conversations.manage({ ...at, status: 'snoozed', snoozedUntil: inFuture(-60_000) }),
      'snoozedUntil',
      'future',
    );
    await expectInvalid(
      chat.conversations.manage({ ...at, status: 'snoozed', snoozedUntil: inFuture(91 * 86_400_000) }),
      'snoozedUntil',
      '90 days',
    );
    await expectInvalid(untyped({ ...at, snoozedUntil: inFuture(60_000) }), 'snoozedUntil', 'only');
    await expectInvalid(untyped({ ...at }), 'status', 'at least one');

    const until = inFuture(1500);
    const snoozed = (await chat.conversations.manage({ ...at, status: 'snoozed', snoozedUntil: until })).data;
    expect(snoozed).toMatchObject({ status: 'snoozed', snoozedUntil: new Date(until).toISOString() });
    expect((await updates.nth(1)).data.changes).toMatchObject({ status: { current: 'snoozed' } });
    const woke = await updates.nth(2, 10_000);
    expect(Date.now() - Date.parse(until)).toBeLessThan(5000);
    expect(woke.data).toMatchObject({
      conversation: { status: 'open' },
      changes: { status: { previous: 'snoozed', current: 'open' }, snoozedUntil: { current: null } },
      by: { type: 'system' },
    });
  });

  test('assigns to a member of the channel only; me and none filter; null unassigns', async ({
    acme,
    chat,
    updates,
  }) => {
    const at = ada(acme.mainChannelId);
    const assigned = (await chat.conversations.manage({ ...at, assigneeId: acme.memberId })).data;
    expect(assigned.assignee).toEqual({ id: acme.memberId, name: 'Acme Member' });
    expect((await updates.nth(1)).data.changes).toEqual({
      assignee: { previous: null, current: { id: acme.memberId, name: 'Acme Member' } },
    });
    const mine = await chat.conversations.list({ channelId: acme.mainChannelId, assigneeId: 'me' });
    expect(mine.data.map((c) => c.phone)).toEqual([ADA]);
    expect(mine.pagination.total).toBe(1);
    const byId = await chat.conversations.list({ channelId: acme.mainChannelId, assigneeId: acme.memberId });
    expect(byId.pagination.total).toBe(1);
    const none = await chat.conversations.list({ channelId: acme.mainChannelId, assigneeId: 'none' });
    expect(none.data.map((c) => c.phone)).not.toContain(ADA);

    // The admin is on Acme's platform but on no channel.
    const admin = acme.ids.users!.admin!.id;
    await expectInvalid(
      chat.conversations.manage({ ...at, assigneeId: admin }),
      'assigneeId',
      'member of this channel',
    );

    const unassigned = (await chat.conversations.manage({ ...at, assigneeId: null })).data;
    expect(unassigned.assignee).toBeNull();
    expect((await chat.conversations.list({ channelId: acme.mainChannelId, assigneeId: 'me' })).data).toEqual([]);
  });

  test('an unknown contact or one without messages is 404; another channel’s is 403; statuses filter', async ({
    acme,
    chat,
  }) => {
    await expectError(
      chat.conversations.manage({ channelId: acme.mainChannelId, phone: '15550000002', status: 'resolved' }),
      404,
      'conversation_not_found',
    );
    await expectError(
      chat.conversations.manage({ channelId: acme.mainChannelId, phone: '19990000000', status: 'resolved' }),
      404,
      'conversation_not_found',
    );
    const linus = acme.ids.contacts!.linus!;
    await expectForbidden(
      chat.conversations.manage({ channelId: acme.mainChannelId, contactId: linus, status: 'open' }),
    );
    await expectForbidden(chat.conversations.manage({ channelId: acme.secondChannelId, phone: ADA, status: 'open' }));

    const all = await chat.conversations.list({
      channelId: acme.mainChannelId,
      status: ['open', 'pending', 'resolved'],
    });
    const each = await Promise.all(
      (['open', 'pending', 'resolved'] as const).map((status) =>
        chat.conversations.list({ channelId: acme.mainChannelId, status }),
      ),
    );
    expect(all.pagination.total).toBe(each.reduce((sum, page) => sum + page.pagination.total, 0));
  });
});
