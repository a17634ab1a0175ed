import { describe, expect, it } from 'vitest';
import { contactSearch, escapeLike } from './contact.search.js';

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

  it('falls back to strpos when no trigram can be extracted', () => {
    expect(contactSearch('%')).toEqual({ sql: '(strpos(lower(c.name), lower(?)) > 0)', params: ['%'] });
    expect(contactSearch('1-2')).toEqual({
      sql: '(strpos(lower(c.name), lower(?)) > 0 or strpos(c.phone, ?) > 0)',
      params: ['1-2', '12'],
    });
  });
});
