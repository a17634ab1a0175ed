import { CONTACTS_SEARCH_COUNT_CAP, stripPhone } from '@switchboard/contract';

/*
 * How contacts/list finds a search term, over the key tables the contact_search_keys migration keeps by trigger
 * (docs/api.md "Contacts and search" states the semantics):
 *
 * - Names: the term, lower-cased with runs of whitespace folded (by the same SQL function that made the keys), is
 *   looked up as one key of `contact_name_prefixes`; its entries under (channel, key), read backwards, are the
 *   matching contacts newest first. A term longer than the stored prefixes looks up its first NAME_PREFIX_LENGTH
 *   characters and is rechecked on the name.
 * - Phones, for a term that is digits once +, spaces, dashes and parentheses are stripped: the contacts having a
 *   phone suffix in [digits, digits || ':') in byte order, i.e. whose phone contains the digits.
 */

/**
 * The longest name prefix stored (NAME_PREFIX_LENGTH of the contact_search_keys migration; tests pin the two together).
 */
export const NAME_PREFIX_LENGTH = 24;
/**
 * The phone column's length (contact.entity.ts): one contact has at most this many suffixes under a term, so
 * reading this many times (cap + 1) suffix rows, or all of them, finds cap + 1 distinct contacts if there are.
 */
const PHONE_MAX_LENGTH = 20;
export const PHONE_ROWS_READ = PHONE_MAX_LENGTH * (CONTACTS_SEARCH_COUNT_CAP + 1);

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
 * Whether the name keys alone decide the term. Counted in code points before PostgreSQL normalizes it, which
 * only folds whitespace and lower-cases character by character, so the normalized term is never longer.
 */
const keyDecides = (term: string) => [...term].length <= NAME_PREFIX_LENGTH;

/** The name key of `term` as SQL, in the key column's collation so that the primary key serves the comparison. */
const NAME_KEY = `left(contact_search_text(?), ${NAME_PREFIX_LENGTH}) collate "C"`;

/**
 * The contacts of a channel whose name matches `term` (contact_id, created_at), newest first, straight off the index.
 */
export function nameMatches(channelId: string, term: string): SqlPart {
  const recheck = keyDecides(term)
    ? ''
    : ` and contact_name_matches((select c.name from contacts c where c.id = k.contact_id), ?)`;
  return {
    sql: `select k.contact_id, k.created_at from contact_name_prefixes k
           where k.channel_id = ? and k.prefix = ${NAME_KEY}${recheck}
           order by k.created_at desc, k.contact_id desc`,
    params: keyDecides(term) ? [channelId, term] : [channelId, term, term],
  };
}

/**
 * Whether contact `c` (a row of contacts in the channel) has a name matching `term`. The channel is a parameter,
 * not `c.channel_id`, so that the planner can also run this as one index lookup of the term's key (a hashed subplan).
 */
export function nameMatchesContact(channelId: string, term: string): SqlPart {
  return {
    sql: `(exists (select 1 from contact_name_prefixes k
                    where k.channel_id = ? and k.prefix = ${NAME_KEY} and k.created_at = c.created_at and k.contact_id
                      = c.id)
           ${keyDecides(term) ? '' : 'and contact_name_matches(c.name, ?)'})`,
    params: keyDecides(term) ? [channelId, term] : [channelId, term, term],
  };
}

/**
 * Suffix rows (contact_id, created_at) of the channel's phones containing `digits`: one index range, in no useful
 * order.
 */
export function phoneMatches(channelId: string, digits: string): SqlPart {
  return {
    sql:
      `select s.contact_id, s.created_at from contact_phone_suffixes s where s.channel_id = ? and s.suffix >= ? ` +
      `and s.suffix < ?`,
    params: [channelId, digits, `${digits}:`],
  };
}
