import { describe, expect, it } from 'vitest';
import { checkCustomFieldValues, MAX_TEXT_VALUE_LENGTH, mergeCustomFieldValues } from './custom-field-values.js';

const FIELDS: Parameters<typeof checkCustomFieldValues>[0] = [
  { name: 'Note', type: 'text', isRequired: false, options: null },
  { name: 'Age', type: 'number', isRequired: false, options: null },
  { name: 'Birthday', type: 'date', isRequired: false, options: null },
  { name: 'Opted in', type: 'boolean', isRequired: false, options: null },
  { name: 'Plan', type: 'select', isRequired: true, options: ['free', 'pro'] },
];

const check = (values: Record<string, string | number | boolean | null>, creating = false) =>
  checkCustomFieldValues(FIELDS, values, creating);

describe('checkCustomFieldValues', () => {
  it('accepts a value of each type', () => {
    expect(
      check({ Note: 'line one\nline two', Age: 36.5, Birthday: '1815-12-10', 'Opted in': false, Plan: 'pro' }, true),
    ).toEqual([]);
  });

  it.each([
    ['Note', 42, 'must be a string (a text field)'],
    ['Note', 'x'.repeat(MAX_TEXT_VALUE_LENGTH + 1), `must be at most ${MAX_TEXT_VALUE_LENGTH} characters`],
    ['Age', '36', 'must be a number (a number field)'],
    ['Birthday', '2026-02-30', 'must be a date written YYYY-MM-DD (a date field)'],
    ['Birthday', '2026-01-05T10:00:00Z', 'must be a date written YYYY-MM-DD (a date field)'],
    ['Birthday', 20260105, 'must be a date written YYYY-MM-DD (a date field)'],
    ['Opted in', 'true', 'must be true or false (a boolean field)'],
    ['Plan', 'enterprise', 'must be one of free, pro'],
    ['Plan', true, 'must be one of free, pro'],
  ])('refuses %s = %j', (name, value, problem) => {
    expect(check({ [name]: value })).toEqual([{ field: `customFields.${name}`, problem }]);
  });

  it('refuses unknown names, one issue per field', () => {
    expect(check({ age: 3, Age: 'x', toString: 'y' })).toEqual([
      { field: 'customFields.age', problem: 'is not a custom field of this channel (see custom-fields/list)' },
      { field: 'customFields.Age', problem: 'must be a number (a number field)' },
      { field: 'customFields.toString', problem: 'is not a custom field of this channel (see custom-fields/list)' },
    ]);
  });

  it('lets null clear an optional field but not a required one', () => {
    expect(check({ Note: null, Age: null })).toEqual([]);
    expect(check({ Plan: null })).toEqual([
      { field: 'customFields.Plan', problem: 'is required and cannot be cleared' },
    ]);
  });

  it('needs every required field on creation only', () => {
    expect(check({ Age: 1 }, true)).toEqual([{ field: 'customFields.Plan', problem: 'is required' }]);
    expect(check({ Age: 1 })).toEqual([]);
  });
});

describe('mergeCustomFieldValues', () => {
  it('replaces given values, removes nulls and keeps the rest', () => {
    expect(
      mergeCustomFieldValues({ Age: 36, Plan: 'pro', Note: 'x' }, { Age: 37, Note: null, Birthday: '1815-12-10' }),
    ).toEqual({
      Age: 37,
      Plan: 'pro',
      Birthday: '1815-12-10',
    });
  });
});
