import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectError, expectInvalid } from '../helpers/expect.js';
import { test as base } from '../helpers/test.js';
import { operatorKeys } from '../helpers/operators.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const test = base
  .extend('nextKey', { scope: 'file' }, ({ server, acme }) => operatorKeys(server, acme.platformId))
  .extend(
    'keyUserId',
    ({ server }) =>
      async (key: string) =>
        (
          await sql<{ user_id: string }>(server.databaseUrl, 'select user_id from api_keys where prefix = $1', [
            key.slice(0, 16),
          ])
        )[0]!.user_id,
  )
  .extend(
    'manage',
    ({ server, acme, nextKey }) =>
      (params: Record<string, unknown>, key = nextKey()) =>
        // Loosely typed on purpose: several cases send what the contract would refuse to compile.
        server.client(key).platform.tickets.manage({ platformId: acme.platformId, ...params } as never),
  )
  .extend(
    'create',
    ({ manage, nextKey }) =>
      (extra: Record<string, unknown> = {}, key = nextKey()) =>
        manage(
          { email: 'pat@customer.example', title: 'Printer on fire', description: 'It is on fire.', ...extra },
          key,
        ),
  );

describe('POST /api/platform/v1/tickets/manage', () => {
  describe('create (no ticketId)', () => {
    test('creates an open ticket owned by the platform user with that email', async ({ server, acme, manage }) => {
      const ownerEmail = (
        await sql<{ email: string }>(server.databaseUrl, 'select email from users where id = $1', [acme.ownerId])
      )[0]!.email;
      const reply = await manage({
        email: ownerEmail.toUpperCase(),
        title: 'Cannot export',
        description: 'CSV export fails',
      });
      expect(reply.message).toBe('Ticket created successfully');
      expect(reply.data).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-/),
        shortId: expect.stringMatching(/^TK-[0-9A-HJKMNP-TV-Z]{8}$/),
        title: 'Cannot export',
        description: 'CSV export fails',
        status: 'open',
        priority: 'medium',
        assignedToId: null,
        assignedToName: null,
        owner: { id: acme.ownerId, email: ownerEmail, name: 'Acme Owner' },
        messages: [],
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        closedAt: null,
      });
    });

    test('creates the owner as an admin user of the platform when the email is new', async ({
      server,
      acme,
      create,
    }) => {
      const reply = await create({ email: 'New.Person@Customer.Example', priority: 'urgent' });
      expect(reply.data).toMatchObject({
        priority: 'urgent',
        owner: { email: 'new.person@customer.example', name: 'new.person' },
      });
      const [user] = await sql(
        server.databaseUrl,
        'select platform_id, role, platform_access from users where id = $1',
        [reply.data.owner.id],
      );
      expect(user).toEqual({ platform_id: acme.platformId, role: 'admin', platform_access: false });
      const again = await create({ email: 'new.person@customer.example' });
      expect(again.data.owner.id).toBe(reply.data.owner.id);
    });

    test('names every missing required field in one 400', async ({ manage }) => {
      const failure = await expectError(manage({}), 400, 'invalid_request');
      expect(failure.message).toMatch(/email: is required.*title: is required.*description: is required/);
      const onlyTitle = await expectInvalid(manage({ email: 'a@b.example', description: 'x' }), 'title', 'is required');
      expect(onlyTitle.message).not.toMatch(/email|description/);
    });

    test('refuses bad values: an invalid email, empty text, a closed new ticket, unknown enums', async ({ create }) => {
      await expectInvalid(create({ email: 'not-an-email' }), 'email', 'must be an email address');
      await expectInvalid(create({ title: '   ' }), 'title', 'must not be empty');
      await expectInvalid(create({ status: 'closed' }), 'status', 'starts open');
      await expectInvalid(create({ priority: 'critical' }), 'priority', 'must be one of low, medium, high, urgent');
    });

    test('can assign and start the thread at creation', async ({ acme, nextKey, keyUserId, create }) => {
      const adminId = acme.ids.users!.admin!.id;
      const key = nextKey();
      const reply = await create({ assignedToId: adminId, message: 'We are on it.' }, key);
      expect(reply.data).toMatchObject({ assignedToId: adminId, assignedToName: 'Acme Admin' });
      expect(reply.data.messages).toEqual([
        {
          id: expect.any(String),
          message: 'We are on it.',
          senderRole: 'admin',
          isInternal: false,
          authorId: await keyUserId(key),
          createdAt: expect.stringMatching(ISO),
        },
      ]);
    });
  });

  describe('update (ticketId)', () => {
    test('updates status and priority by UUID, and returns the whole ticket', async ({ manage, create }) => {
      const { data: created } = await create();
      const reply = await manage({
        ticketId: created.id,
        status: 'in_progress',
        priority: 'high',
        title: 'Printer still on fire',
      });
      expect(reply.message).toBe('Ticket updated successfully');
      expect(reply.data).toMatchObject({
        id: created.id,
        shortId: created.shortId,
        status: 'in_progress',
        priority: 'high',
        title: 'Printer still on fire',
        description: 'It is on fire.',
      });
      expect(reply.data.updatedAt >= created.updatedAt).toBe(true);
    });

    test('finds a ticket by shortId, in any letter case, and over GET', async ({
      server,
      acme,
      nextKey,
      manage,
      create,
    }) => {
      const { data: created } = await create();
      expect((await manage({ ticketId: created.shortId, priority: 'low' })).data).toMatchObject({
        id: created.id,
        priority: 'low',
      });
      expect((await manage({ ticketId: created.shortId.toLowerCase(), status: 'resolved' })).data.status).toBe(
        'resolved',
      );
      const query = new URLSearchParams({ platformId: acme.platformId, ticketId: created.shortId, priority: 'urgent' });
      const viaGet = await server.http.get(`/api/platform/v1/tickets/manage?${query}`, {
        headers: { 'X-API-Key': nextKey() },
      });
      expect(viaGet.status).toBe(200);
      expect(viaGet.data.data.priority).toBe('urgent');
    });

    test('sets closedAt when closing, keeps it while closed, clears it when reopening', async ({ manage, create }) => {
      const { data: created } = await create();
      const closed = (await manage({ ticketId: created.id, status: 'closed' })).data;
      expect(closed.closedAt).toMatch(ISO);
      expect((await manage({ ticketId: created.id, status: 'closed' })).data.closedAt).toBe(closed.closedAt);
      expect((await manage({ ticketId: created.id, priority: 'low' })).data.closedAt).toBe(closed.closedAt);
      const reopened = (await manage({ ticketId: created.id, status: 'open' })).data;
      expect(reopened).toMatchObject({ status: 'open', closedAt: null });
    });

    test('refuses status and priority values outside the spec’s sets', async ({ manage, create }) => {
      const { data: created } = await create();
      await expectInvalid(
        manage({ ticketId: created.id, status: 'done' }),
        'status',
        'must be one of open, in_progress, resolved, closed',
      );
      await expectInvalid(manage({ ticketId: created.id, priority: 'p1' }), 'priority', 'must be one of');
    });

    test('assigns admins (and the owner) of the platform only; null unassigns', async ({
      acme,
      globex,
      manage,
      create,
    }) => {
      const { data: created } = await create();
      const adminId = acme.ids.users!.admin!.id;
      expect((await manage({ ticketId: created.id, assignedToId: adminId })).data).toMatchObject({
        assignedToId: adminId,
        assignedToName: 'Acme Admin',
      });
      expect((await manage({ ticketId: created.id, assignedToName: 'Night shift' })).data).toMatchObject({
        assignedToId: adminId,
        assignedToName: 'Night shift',
      });
      expect(
        (await manage({ ticketId: created.id, assignedToId: acme.ownerId, assignedToName: 'The boss' })).data,
      ).toMatchObject({ assignedToId: acme.ownerId, assignedToName: 'The boss' });
      await expectInvalid(
        manage({ ticketId: created.id, assignedToId: acme.memberId }),
        'assignedToId',
        'must be an admin user of this platform',
      );
      await expectInvalid(
        manage({ ticketId: created.id, assignedToId: globex.ownerId }),
        'assignedToId',
        'must be an admin user of this platform',
      );
      await expectInvalid(
        manage({ ticketId: created.id, assignedToId: 'someone' }),
        'assignedToId',
        'must be a user id',
      );
      expect((await manage({ ticketId: created.id, assignedToId: null })).data).toMatchObject({
        assignedToId: null,
        assignedToName: null,
      });
    });

    test('keeps the owner: an email other than the owner’s is refused', async ({ manage, create }) => {
      const { data: created } = await create();
      expect(
        (await manage({ ticketId: created.id, email: 'PAT@customer.example', priority: 'high' })).data.priority,
      ).toBe('high');
      await expectInvalid(manage({ ticketId: created.id, email: 'someone.else@customer.example' }), 'email', 'owner');
    });

    test('404 ticket_not_found for unknown tickets and for another platform’s, by UUID or shortId', async ({
      server,
      globex,
      manage,
    }) => {
      const globexTicket = globex.ids.tickets!.t1!;
      for (const ticketId of [randomUUID(), 'TK-00000000', 'nonsense', globexTicket.id, globexTicket.shortId]) {
        await expectError(
          manage({ ticketId, status: 'closed' }),
          404,
          'ticket_not_found',
          /not found in this platform/,
        );
      }
      const [untouched] = await sql(server.databaseUrl, 'select status from tickets where id = $1', [globexTicket.id]);
      expect(untouched).toEqual({ status: 'open' });
    });
  });

  describe('the thread (message)', () => {
    test('adds messages in order: admin replies by the caller (default), notes, and creator replies (owner)', async ({
      nextKey,
      keyUserId,
      manage,
      create,
    }) => {
      const { data: created } = await create();
      const key = nextKey();
      await manage({ ticketId: created.id, message: 'Have you tried turning it off?' }, key);
      await manage(
        { ticketId: created.id, message: 'Customer sounds upset', isInternal: true, senderRole: 'admin' },
        key,
      );
      const reply = await manage({
        ticketId: created.id,
        message: 'It is off now. Still burning.',
        senderRole: 'creator',
        isInternal: false,
      });
      const staffId = await keyUserId(key);
      expect(
        reply.data.messages.map(({ message, senderRole, isInternal, authorId }) => ({
          message,
          senderRole,
          isInternal,
          authorId,
        })),
      ).toEqual([
        { message: 'Have you tried turning it off?', senderRole: 'admin', isInternal: false, authorId: staffId },
        { message: 'Customer sounds upset', senderRole: 'admin', isInternal: true, authorId: staffId },
        {
          message: 'It is off now. Still burning.',
          senderRole: 'creator',
          isInternal: false,
          authorId: created.owner.id,
        },
      ]);
      expect(reply.data.updatedAt > created.updatedAt).toBe(true);
    });

    test('refuses an internal creator message, and message options without a message', async ({ manage, create }) => {
      const { data: created } = await create();
      await expectInvalid(
        manage({ ticketId: created.id, message: 'psst', senderRole: 'creator', isInternal: true }),
        'isInternal',
        'cannot be used with senderRole creator',
      );
      await expectInvalid(
        manage({ ticketId: created.id, senderRole: 'creator' }),
        'senderRole',
        'only applies together with message',
      );
      await expectInvalid(
        manage({ ticketId: created.id, isInternal: true }),
        'isInternal',
        'only applies together with message',
      );
      await expectInvalid(
        manage({ ticketId: created.id, message: 'hi', senderRole: 'agent' }),
        'senderRole',
        'must be one of admin, creator',
      );
      expect((await manage({ ticketId: created.id })).data.messages).toEqual([]);
    });
  });
});
