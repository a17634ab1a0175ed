import { describe, expect, it } from 'vitest';
import { countPlaceholders } from './template-placeholders.js';

describe('countPlaceholders', () => {
  it('counts distinct numbered placeholders', () => {
    expect(countPlaceholders('Hi {{1}}, order {{2}} shipped')).toBe(2);
    expect(countPlaceholders('{{1}} and again {{1}}')).toBe(1);
    expect(countPlaceholders('No variables')).toBe(0);
    expect(countPlaceholders('Spaces {{ 3 }} ok, {{name}} ignored')).toBe(1);
  });
});
