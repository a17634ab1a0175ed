import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { Note } from './note.entity.js';
import { notesRouter } from './note.router.js';
import { notesSeed } from './note.seed.js';

/** Private notes on conversations (chat/notes/*): the team's, never the customer's, and no automation's trigger. */
export const notesModule = defineModule({
  name: 'notes',
  entities: [Note],
  routes: [routes(contract.workspace.chat.notes, notesRouter)],
  seed: [notesSeed],
  demo: {
    notes: [
      {
        channel: 'support',
        phone: '15550000002',
        author: 'owner',
        text: 'Replacement sent; Grace confirmed it arrived.',
      },
    ],
  },
});
