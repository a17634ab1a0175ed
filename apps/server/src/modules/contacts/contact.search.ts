import { stripPhone } from '@switchboard/contract';

export interface SqlCondition {
  sql: string;
  params: string[];
}

/** LIKE wildcards and the escape character itself, taken literally (backslash is PostgreSQL's default escape). */
export const escapeLike = (term: string) => term.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * pg_trgm can only use its index for a pattern holding a trigram: three consecutive letters or digits. For
 * anything shorter it would read the whole GIN index (seconds at a million rows), so such terms use strpos(),
 * which the planner cannot send to the index: it scans the channel in listing order instead.
 */
const INDEXABLE = /[\p{L}\p{N}]{3}/u;

function contains(column: string, term: string, caseInsensitive: boolean): SqlCondition {
  if (INDEXABLE.test(term)) {
    return { sql: `${column} ${caseInsensitive ? 'ilike' : 'like'} ?`, params: [`%${escapeLike(term)}%`] };
  }
  return caseInsensitive
    ? { sql: `strpos(lower(${column}), lower(?)) > 0`, params: [term] }
    : { sql: `strpos(${column}, ?) > 0`, params: [term] };
}

/**
 * `search` as SQL over contacts `c`: a case-insensitive substring of the name, or of the phone once the
 * term is reduced to the digits a caller may have typed with +, spaces, dashes or parentheses. Phones are
 * stored as digits only, so a term that is not digits after stripping cannot match one and is not tried.
 */
export function contactSearch(term: string): SqlCondition {
  const name = contains('c.name', term, true);
  const digits = stripPhone(term);
  if (!/^\d+$/.test(digits)) return { sql: `(${name.sql})`, params: name.params };
  const phone = contains('c.phone', digits, false);
  return { sql: `(${name.sql} or ${phone.sql})`, params: [...name.params, ...phone.params] };
}
