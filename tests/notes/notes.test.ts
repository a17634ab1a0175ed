import { describe, expect } from 'vitest';
import { expectError, expectForbidden, expectInvalid } from '../helpers/expect.js';
import { tenantSeed } from '../helpers/fixtures.js';
import { test as base } from '../helpers/test.js';

const ADA = '15550000001';

const test = base.extend('team', { scope: 'file' }, async ({ server }) => {
  const file = tenantSeed('Notes');
  const tag = file.users![0]!.email.split('@')[1]!;
  // A second agent on the main channel, without platform access.
  file.users!.push({
    ref: 'colleague',
    platform: 'p',
    email: `colleague@${tag}`,
    name: 'Notes Colleague',
    apiKey: true,
  });
  file.channels![0]!.users!.push('colleague');
  const ids = await server.seed(file);
  const chat = (ref: string) => server.client(ids.users![ref]!.apiKey!).workspace.chat;
  return {
    ids,
    channelId: ids.channels!.main!,
    member: chat('member'),
    colleague: chat('colleague'),
    owner: chat('owner'),
  };
});

describe('chat/notes: private notes on a conversation', () => {
  test('an agent writes notes; the list is newest first; they never reach the customer', async ({ team }) => {
    const { member, colleague, channelId, ids } = team;
    const before = await member.messages.list({ channelId, phone: ADA });
    const first = (await member.notes.manage({ channelId, action: 'create', phone: ADA, text: 'Called her back.' }))
      .data;
    expect(first).toMatchObject({
      contactId: ids.contacts!.ada,
      author: { id: ids.users!.member!.id, name: 'Notes Member' },
      text: 'Called her back.',
    });
    const second = (
      await colleague.notes.manage({ channelId, action: 'create', contactId: ids.contacts!.ada!, text: 'Refund sent.' })
    ).data;
    const listed = await member.notes.list({ channelId, phone: ADA });
    expect(listed.data.map((note) => note.id)).toEqual([second.id, first.id]);
    expect(listed.pagination).toEqual({ page: 1, limit: 50, total: 2, pages: 1 });
    // No message, no outbound send: the conversation's history is as it was.
    expect((await member.messages.list({ channelId, phone: ADA })).pagination.total).toBe(before.pagination.total);
  });

  test('only its author or a user with platform access deletes a note; others get 403', async ({ team }) => {
    const { member, colleague, owner, channelId } = team;
    const note = (await member.notes.manage({ channelId, action: 'create', phone: ADA, text: 'Mine.' })).data;
    await expectForbidden(colleague.notes.manage({ channelId, action: 'delete', noteId: note.id }));
    expect((await member.notes.manage({ channelId, action: 'delete', noteId: note.id })).data.id).toBe(note.id);
    const other = (await colleague.notes.manage({ channelId, action: 'create', phone: ADA, text: 'Theirs.' })).data;
    const deleted = await owner.notes.manage({ channelId, action: 'delete', noteId: other.id });
    expect(deleted.message).toBe('Note deleted');
    await expectError(member.notes.manage({ channelId, action: 'delete', noteId: other.id }), 404, 'note_not_found');
  });

  test('validates text, the contact and tenancy', async ({ server, team, globex }) => {
    const { member, channelId } = team;
    await expectInvalid(member.notes.manage({ channelId, action: 'create', phone: ADA } as never), 'text', 'required');
    await expectInvalid(
      member.notes.manage({ channelId, action: 'create', phone: ADA, text: 'x'.repeat(4001) }),
      'text',
      '4000',
    );
    await expectError(
      member.notes.manage({ channelId, action: 'create', phone: '19990000000', text: 'Who?' }),
      404,
      'contact_not_found',
    );
    await expectForbidden(member.notes.list({ channelId: globex.mainChannelId, phone: ADA }));
    const theirs = (
      await server
        .client(globex.ownerKey)
        .workspace.chat.notes.manage({ channelId: globex.mainChannelId, action: 'create', phone: ADA, text: 'Globex' })
    ).data;
    await expectForbidden(member.notes.manage({ channelId, action: 'delete', noteId: theirs.id }));
  });
});
