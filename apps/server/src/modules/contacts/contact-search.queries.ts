import { CONTACTS_SEARCH_COUNT_CAP, stripPhone } from '@switchboard/contract';
import { NAME_PREFIX_LENGTH, NAME_WORD_LENGTH } from './contact.sql.js';

/*
 * How contacts/list finds a search term, over the keys contact.sql.ts keeps by trigger (docs/api.md "Contacts and
 * search" states the semantics). Terms are lower-cased with runs of whitespace folded by the same SQL function that
 * made the keys.
 *
 * - Names, a short term (up to NAME_PREFIX_LENGTH characters): one key of `contact_name_prefixes`, whose entries
 *   under (channel, key), read backwards, are the matching contacts newest first, however many.
 * - Names, a longer term: the range [term, contact_search_next(term)) of `contact_name_words`, in no useful order;
 *   its first cap + 1 entries are counted, and when they are all of them (a selective term) sorted for the page. A
 *   term too broad for that is paged by its first NAME_PREFIX_LENGTH characters' prefix entries, newest first, each
 *   rechecked on the name (broadNamePage in contact.service.ts). A term longer than the stored words
 *   (NAME_WORD_LENGTH) looks up its first NAME_WORD_LENGTH characters and is rechecked on the name.
 * - Phones, for a term that is digits once +, spaces, dashes and parentheses are stripped: the contacts whose phone
 *   contains the digits, by the trigram index on contacts.phone (from 3 digits) or by walking the listing order.
 */

/** Fewer digits than a trigram: the trigram index cannot narrow them. */
const PHONE_TRIGRAM = 3;

export interface SqlPart {
  sql: string;
  params: unknown[];
}

/** The term's digits when it is a phone fragment (digits once +, spaces, dashes and parentheses are stripped). */
export function phoneDigits(term: string): string | undefined {
  const digits = stripPhone(term);
  return /^\d+$/.test(digits) ? digits : undefined;
}

/**
 * Counted in code points before PostgreSQL normalizes the term, which only folds whitespace and lower-cases
 * character by character, so the normalized term is never longer.
 */
const length = (term: string) => [...term].length;

/** Whether the term is short enough to be one prefix key, read in listing order. */
const isShortTerm = (term: string) => length(term) <= NAME_PREFIX_LENGTH;

/** A key of `term`, its first `characters` characters normalized, as SQL in the key columns' collation. */
const keyOf = (characters: number) => `left(contact_search_text(?), ${characters}) collate "C"`;

/** The entries of a short name term (one prefix key), newest first, straight off the index. */
function prefixMatches(channelId: string, term: string): SqlPart {
  return {
    sql: `select k.contact_id, k.created_at from contact_name_prefixes k
           where k.channel_id = ? and k.prefix = ${keyOf(NAME_PREFIX_LENGTH)}
           order by k.created_at desc, k.contact_id desc`,
    params: [channelId, term],
  };
}

/**
 * The entries of a longer name term: one range of word keys, each contact once (`shared`), in no useful order. A term
 * longer than the word keys is rechecked on the name, and its contacts taken once however their words repeat.
 */
function wordMatches(channelId: string, term: string): SqlPart {
  const long = length(term) > NAME_WORD_LENGTH;
  const sql = `select k.contact_id, k.created_at from contact_name_words k
     where k.channel_id = ? and k.word >= ${keyOf(NAME_WORD_LENGTH)}
       and k.word < contact_search_next(${keyOf(NAME_WORD_LENGTH)}) collate "C"
       and k.shared < char_length(contact_search_text(?))`;
  const params = [channelId, term, term, term];
  return long
    ? {
        sql: `select distinct m.contact_id, m.created_at from (${sql}
               and contact_name_matches((select c.name from contacts c where c.id = k.contact_id), ?)) m`,
        params: [...params, term],
      }
    : { sql, params };
}

/**
 * The contacts of a channel whose name matches `term` (contact_id, created_at); `ordered` when they come newest first,
 * so that the first rows are the page (a short term), otherwise every match must be read to sort them.
 */
export function nameMatches(channelId: string, term: string): SqlPart & { ordered: boolean } {
  return isShortTerm(term)
    ? { ...prefixMatches(channelId, term), ordered: true }
    : { ...wordMatches(channelId, term), ordered: false };
}

/**
 * The contacts (contact_id, created_at) of the channel whose phone contains `digits`, in no useful order: a bitmap
 * of the trigram index rechecked on the phone; fewer digits than a trigram walk the listing index, where they are
 * dense.
 */
export function phoneMatches(channelId: string, digits: string): SqlPart {
  return digits.length < PHONE_TRIGRAM
    ? {
        sql: `select c.id as contact_id, c.created_at from contacts c where c.channel_id = ? and strpos(c.phone, ?) > 0
               order by c.created_at desc, c.id desc`,
        params: [channelId, digits],
      }
    : {
        sql: `select c.id as contact_id, c.created_at from contacts c where c.channel_id = ? and c.phone like ?`,
        params: [channelId, `%${digits}%`],
      };
}

/**
 * Whether contact `c` has a name matching `term`, checked on the row. A name can only match if it holds the
 * normalized term (a phone fragment's, its first digit), which is checked first: a substring search costs far less
 * than splitting the name into words, and most rows a broad walk reads fail it.
 */
export function nameMatchesRow(term: string, digits?: string): SqlPart {
  return digits
    ? { sql: '(strpos(c.name, ?) > 0 and contact_name_matches(c.name, ?))', params: [digits[0], term] }
    : {
        sql: '(strpos(contact_search_text(c.name), contact_search_text(?)) > 0 and contact_name_matches(c.name, ?))',
        params: [term, term],
      };
}

/** How many entries a search reads at most to count: one past the cap. */
export const COUNTED = CONTACTS_SEARCH_COUNT_CAP + 1;
