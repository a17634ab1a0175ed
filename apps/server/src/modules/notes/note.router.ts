import type { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/index.js';
import { createNote, deleteNote, listNotes } from './note.service.js';

export function notesRouter({ em, logger }: RouteDeps) {
  return {
    list: implement<typeof contract.workspace.chat.notes.list>(em, logger, async ({ channelId, ...query }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      return { success: true, ...(await listNotes(ctx, channel, query)) };
    }),
    manage: implement<typeof contract.workspace.chat.notes.manage>(em, logger, async (params, ctx) => {
      const channel = await resolveChannel(ctx, params.channelId);
      if (params.action === 'delete')
        return { success: true, data: await deleteNote(ctx, channel, params.noteId), message: 'Note deleted' };
      const data = await createNote(ctx, channel, params);
      return { success: true, data, message: 'Note created' };
    }),
  };
}
