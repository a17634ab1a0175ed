import { NOTE_MAX_LENGTH, phoneParam } from '@switchboard/contract';
import { z } from 'zod';
import { SeedError, seededId, seedRef, seedSection } from '../../kit/seed.js';
import { Channel } from '../channels/index.js';
import { Contact } from '../contacts/index.js';
import { User } from '../users/index.js';
import { Note } from './note.entity.js';

/** Notes on conversations in the seed file, by the channel and the contact's phone, written by a user. */
export const notesSeed = seedSection({
  key: 'notes',
  item: z
    .object({
      ref: seedRef.optional(),
      channel: seedRef,
      phone: phoneParam(),
      author: seedRef,
      text: z.string().min(1).max(NOTE_MAX_LENGTH),
    })
    .strict(),
  async load(ctx, item, path) {
    const channel = await ctx.ref('channels', Channel, item.channel, `${path}.channel`);
    const contact = await ctx.em.findOne(Contact, { channel, phone: item.phone }, { fields: ['id'] });
    if (!contact) throw new SeedError(`${path}.phone`, 'no contact with this phone in the channel');
    const author = await ctx.ref('users', User, item.author, `${path}.author`);
    const note = ctx.em.create(Note, {
      channel,
      contact: contact.id,
      author,
      authorName: author.name,
      text: item.text,
    });
    return seededId(note);
  },
});
