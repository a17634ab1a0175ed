import { describe, expect, it } from 'vitest';
import { contactSearch, escapeLike, yieldsTrigram } from './contact.search.js';

describe('contactSearch', () => {
  it('escapes LIKE wildcards and the escape character', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });

  it('uses an indexable ILIKE on the name, and the phone only for digit terms', () => {
    expect(contactSearch('Ada')).toEqual({ sql: '(c.name ilike ?)', params: ['%Ada%'] });
    expect(contactSearch('+1 (555) 000-01')).toEqual({
      sql: '(c.name ilike ? or c.phone like ?)',
      params: ['%+1 (555) 000-01%', '%155500001%'],
    });
  });

  it('keeps a typed phone fragment indexable on both columns', () => {
    expect(contactSearch('27-72')).toEqual({ sql: '(c.name ilike ? or c.phone like ?)', params: ['%27-72%', '%2772%'] });
  });

  it('falls back to strpos when no trigram can be extracted', () => {
    expect(contactSearch('%')).toEqual({ sql: '(strpos(lower(c.name), lower(?)) > 0)', params: ['%'] });
    expect(contactSearch('1-2')).toEqual({
      sql: '(c.name ilike ? or strpos(c.phone, ?) > 0)',
      params: ['%1-2%', '12'],
    });
  });
});

describe('yieldsTrigram (what pg_trgm extracts from %term%)', () => {
  it.each([
    ['Ali', true],
    ['Al ', true],
    [' a', true],
    ['a b', true],
    ['27-72', true],
    ['Łód', true],
    ['Al', false],
    ['a ', false],
    ['%', false],
    ['--', false],
    ['', false],
  ])('%s → %s', (term, expected) => {
    expect(yieldsTrigram(term)).toBe(expected);
  });
});
