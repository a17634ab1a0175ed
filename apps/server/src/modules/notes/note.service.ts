import { ME, type Note as NoteView, type NoteCreateValues } from '@switchboard/contract';
import type { CallerContext } from '../../kit/context.js';
import { ForbiddenError, NotFoundError } from '../../kit/errors.js';
import { offsetOf, paginationOf } from '../../kit/pagination.js';
import { assertInChannel, type ScopedChannel } from '../channels/index.js';
import { conversationContact } from '../conversations/index.js';
import { Note } from './note.entity.js';

type LoadedNote = Pick<Note, 'id' | 'contact' | 'author' | 'authorName' | 'text' | 'createdAt'>;

const noteView = (note: LoadedNote): NoteView => ({
  id: note.id,
  contactId: note.contact.id,
  author: { id: note.author?.id ?? null, name: note.authorName },
  text: note.text,
  createdAt: note.createdAt.toISOString(),
});

const FIELDS = ['contact', 'author', 'authorName', 'text', 'createdAt'] as const;

/** chat/notes/list: the conversation's notes, newest first, all or one author's. */
export async function listNotes(
  ctx: CallerContext,
  channel: ScopedChannel,
  query: { contactId?: string; phone?: string; authorId?: string; page: number; limit: number },
) {
  const contactId = (await conversationContact(ctx, channel, query))!;
  const author = query.authorId === ME ? ctx.caller.userId : query.authorId;
  const [notes, total] = await ctx.em.findAndCount(
    Note,
    { contact: contactId, ...(author === undefined ? {} : { author }) },
    { fields: FIELDS, orderBy: { createdAt: 'desc', id: 'desc' }, limit: query.limit, offset: offsetOf(query) },
  );
  return { data: notes.map(noteView), pagination: paginationOf(query.page, query.limit, total) };
}

/** chat/notes/manage `create`: a note by the caller on the conversation with the contact. */
export async function createNote(
  ctx: CallerContext,
  channel: ScopedChannel,
  params: NoteCreateValues,
): Promise<NoteView> {
  const contactId = (await conversationContact(ctx, channel, params))!;
  const note = ctx.em.create(Note, {
    channel: channel.id,
    contact: contactId,
    author: ctx.caller.userId,
    authorName: ctx.caller.name,
    text: params.text,
  });
  await ctx.em.flush();
  return noteView(note);
}

/**
 * chat/notes/manage `delete`: only its author, or a user with platform access, may delete a note; one in another
 * channel the caller may use is not found, one in a channel the caller may not use is 403.
 */
export async function deleteNote(ctx: CallerContext, channel: ScopedChannel, noteId: string): Promise<NoteView> {
  const note = await ctx.em.findOne(Note, noteId, { fields: ['channel', ...FIELDS] });
  assertInChannel(ctx, channel, note?.channel.id, () => new NotFoundError('note_not_found', `No note ${noteId}.`));
  if (note!.author?.id !== ctx.caller.userId && !ctx.caller.platformAccess)
    throw new ForbiddenError('Only the note’s author or a user with platform access may delete it.');
  await ctx.em.nativeDelete(Note, noteId);
  return noteView(note!);
}
