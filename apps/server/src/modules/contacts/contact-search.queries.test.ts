import { describe, expect, it } from 'vitest';
import { nameMatches, phoneDigits } from './contact-search.queries.js';
import { NAME_PREFIX_LENGTH, NAME_WORD_LENGTH } from './contact.sql.js';

describe('phoneDigits', () => {
  it.each([
    ['+1 (555) 000-01', '155500001'],
    ['27-72', '2772'],
    ['4', '4'],
    ['Ada', undefined],
    ['Room 1000', undefined],
    ['12.34', undefined],
  ])('%s → %s', (term, digits) => {
    expect(phoneDigits(term)).toBe(digits);
  });
});

describe('nameMatches', () => {
  it('passes the term as a parameter, never as SQL text', () => {
    for (const term of ["O'Brien%_\\", "O'B"]) {
      const { sql, params } = nameMatches('channel', term);
      expect(sql).not.toContain("O'B");
      expect(params.slice(1)).toEqual(Array(params.length - 1).fill(term));
    }
  });

  it('reads a short term off one prefix key in listing order, a longer one off a range of word keys', () => {
    const short = nameMatches('channel', 'x'.repeat(NAME_PREFIX_LENGTH));
    expect(short.ordered).toBe(true);
    expect(short.sql).toContain('contact_name_prefixes');
    const longer = nameMatches('channel', 'x'.repeat(NAME_PREFIX_LENGTH + 1));
    expect(longer.ordered).toBe(false);
    expect(longer.sql).toContain('contact_name_words');
  });

  it('rechecks on the name only a term longer than the stored words', () => {
    const longest = 'x'.repeat(NAME_WORD_LENGTH);
    expect(nameMatches('channel', longest).sql).not.toContain('contact_name_matches');
    // Counted in code points: 24 emoji are 48 UTF-16 units and still one key.
    expect(nameMatches('channel', '😀'.repeat(NAME_WORD_LENGTH)).sql).not.toContain('contact_name_matches');
    expect(nameMatches('channel', `${longest}y`).sql).toContain('contact_name_matches');
  });
});
