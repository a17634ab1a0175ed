import { stripPhone } from '@switchboard/contract';

export interface SqlCondition {
  sql: string;
  params: string[];
}

/** LIKE wildcards and the escape character itself, taken literally (backslash is PostgreSQL's default escape). */
export const escapeLike = (term: string) => term.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * Whether pg_trgm can take a trigram out of the pattern `%term%` (it mirrors pg_trgm's generate_wildcard_trgm):
 * each run of letters or digits is a word, padded with two spaces when something other than the wildcard comes
 * before it and one space when something comes after it, and yields trigrams once that is three characters long.
 * `Ali`, `27-72` (`27 `, `  7`, ` 72`) and `Al ` do; `Al` and `%` do not. Without a trigram pg_trgm would read the
 * whole GIN index (seconds at a million rows), so such terms use strpos(), which the planner cannot send to the
 * index: it reads the channel in listing order instead.
 */
export function yieldsTrigram(term: string): boolean {
  return [...term.matchAll(/[\p{L}\p{N}]+/gu)].some((word) => {
    const padding = (word.index > 0 ? 2 : 0) + (word.index + word[0].length < term.length ? 1 : 0);
    return [...word[0]].length + padding >= 3;
  });
}

function contains(column: string, term: string, caseInsensitive: boolean, viaTrigrams: boolean): SqlCondition {
  if (viaTrigrams && yieldsTrigram(term)) {
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
 * `viaTrigrams: false` gives the same matches as strpos(), which the planner cannot send to the trigram indexes:
 * for a term known to match densely, reading the channel in listing order finds a page sooner.
 */
export function contactSearch(term: string, viaTrigrams = true): SqlCondition {
  const name = contains('c.name', term, true, viaTrigrams);
  const digits = stripPhone(term);
  if (!/^\d+$/.test(digits)) return { sql: `(${name.sql})`, params: name.params };
  const phone = contains('c.phone', digits, false, viaTrigrams);
  return { sql: `(${name.sql} or ${phone.sql})`, params: [...name.params, ...phone.params] };
}
