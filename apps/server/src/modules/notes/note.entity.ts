import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';
import { Contact } from '../contacts/index.js';
import { User } from '../users/index.js';

/**
 * A private note on a conversation (channel + contact), for the team: never sent, not a message. The author's name
 * is kept with it, so a note outlives its author's account (`author` is then null).
 */
const NoteSchema = defineEntity({
  name: 'Note',
  tableName: 'notes',
  properties: {
    id: uuidPrimaryKey(),
    channel: () => p.manyToOne(Channel).deleteRule('cascade').index('notes_channel_id_index'),
    contact: () => p.manyToOne(Contact).deleteRule('cascade'),
    author: () => p.manyToOne(User).nullable().deleteRule('set null').index('notes_author_id_index'),
    authorName: p.string().length(200),
    text: p.text(),
    createdAt: createdAtColumn(),
  },
  // A conversation's notes, newest first (chat/notes/list).
  indexes: [
    {
      name: 'notes_contact_recent_index',
      expression: 'create index "notes_contact_recent_index" on "notes" ("contact_id", "created_at" desc, "id" desc)',
    },
  ],
});
export class Note extends NoteSchema.class {}
NoteSchema.setClass(Note);
