import type { EntityManager } from '@mikro-orm/postgresql';
import { OPT_IN_WORDS, OPT_OUT_WORDS } from '@switchboard/contract';
import { changeContactStatus } from '../contacts/index.js';

/** A text as stop words are compared: no spaces, no accents (ARRÊT is ARRET), upper case. */
function normalizeKeyword(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f\s]/g, '')
    .toUpperCase();
}

const STOP = new Set<string>(OPT_OUT_WORDS);
const START = new Set<string>(OPT_IN_WORDS);

/**
 * A customer's message that is exactly a stop word unsubscribes their contact (MARKETING templates then refuse,
 * broadcasts skip them); START subscribes them again. In the transaction that records the message.
 */
export async function applyOptOutWords(
  tx: EntityManager,
  message: { channelId: string; contactId: string; text: string | null },
): Promise<void> {
  if (message.text === null || message.text.length > 40) return;
  const word = normalizeKeyword(message.text);
  const contact = { channelId: message.channelId, contactId: message.contactId };
  if (STOP.has(word)) await changeContactStatus(tx, contact, { from: 'active', to: 'unsubscribed' });
  else if (START.has(word)) await changeContactStatus(tx, contact, { from: 'unsubscribed', to: 'active' });
}
