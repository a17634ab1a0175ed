import { describe, expect, it } from 'vitest';
import { NAME_PREFIX_LENGTH, nameMatches, phoneDigits } from './contact-search.queries.js';

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
    const { sql, params } = nameMatches('channel', "O'Brien%_\\");
    expect(sql).not.toContain("O'Brien");
    expect(params).toEqual(['channel', "O'Brien%_\\"]);
  });

  it('rechecks on the name only a term longer than the stored prefixes', () => {
    const longest = 'x'.repeat(NAME_PREFIX_LENGTH);
    expect(nameMatches('channel', longest).sql).not.toContain('contact_name_matches');
    // Counted in code points: 24 emoji are 48 UTF-16 units and still one key.
    expect(nameMatches('channel', '😀'.repeat(NAME_PREFIX_LENGTH)).sql).not.toContain('contact_name_matches');
    const longer = nameMatches('channel', `${longest}y`);
    expect(longer.sql).toContain('contact_name_matches');
    expect(longer.params).toEqual(['channel', `${longest}y`, `${longest}y`]);
  });
});
