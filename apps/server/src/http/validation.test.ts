import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { zodIssues } from './validation.js';

const schema = z.object({
  limit: z.number().int().max(200),
  name: z.string().min(1),
  color: z.string().regex(/^#[0-9a-f]{6}$/, 'must be a hex color like #ff8800'),
  kind: z.enum(['a', 'b']),
});

describe('zodIssues', () => {
  it('names every offending field with a reason a person can act on', () => {
    const result = schema.safeParse({ limit: 500, name: '', color: 'red', kind: 'c' });
    expect(result.success).toBe(false);
    expect(zodIssues(result.error!)).toEqual([
      { field: 'limit', problem: 'must be at most 200' },
      { field: 'name', problem: 'must not be empty' },
      { field: 'color', problem: 'must be a hex color like #ff8800' },
      { field: 'kind', problem: 'must be one of a, b' },
    ]);
  });

  it('says which fields are missing or of the wrong type', () => {
    const result = schema.safeParse({ limit: 'ten' });
    expect(zodIssues(result.error!)).toEqual([
      { field: 'limit', problem: 'must be a number (got string)' },
      { field: 'name', problem: 'is required' },
      { field: 'color', problem: 'is required' },
      { field: 'kind', problem: 'is required' },
    ]);
  });

  it('names the body itself when it is not an object', () => {
    const result = schema.safeParse([1]);
    expect(zodIssues(result.error!, 'body')).toEqual([{ field: 'body', problem: 'must be an object (got array)' }]);
  });
});

describe('zodIssues on strict objects', () => {
  it('names each unknown parameter', () => {
    const result = z.object({ search: z.string() }).strict().safeParse({ search: 'a', serach: 'b', pgae: 2 });
    expect(zodIssues(result.error!)).toEqual([
      { field: 'serach', problem: 'unknown parameter' },
      { field: 'pgae', problem: 'unknown parameter' },
    ]);
  });
});
