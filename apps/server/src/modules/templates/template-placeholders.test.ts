import { describe, expect, it } from 'vitest';
import { countPlaceholders, fillPlaceholders, placeholderCustomFields } from './template-placeholders.js';

describe('countPlaceholders', () => {
  it('counts distinct numbered placeholders', () => {
    expect(countPlaceholders('Hi {{1}}, order {{2}} shipped')).toBe(2);
    expect(countPlaceholders('{{1}} and again {{1}}')).toBe(1);
    expect(countPlaceholders('No variables')).toBe(0);
    expect(countPlaceholders('Spaces {{ 3 }} ok, {{name}} ignored')).toBe(1);
  });
});

describe('contact placeholders', () => {
  const contact = { name: 'Ada', phone: '15550000001', customFields: { Plan: 'pro', Age: 36, Vip: false } };

  it('fills contact fields and custom fields, an unset one with nothing', () => {
    expect(
      fillPlaceholders(
        'Hi {{contact.name}} ({{ contact.phone }}), {{customField.Plan}}{{customField.Birthday}}',
        contact,
      ),
    ).toBe('Hi Ada (15550000001), pro');
    expect(placeholderCustomFields('{{customField.Plan}} {{contact.name}} {{customField.Age}}')).toEqual([
      'Plan',
      'Age',
    ]);
  });
});
