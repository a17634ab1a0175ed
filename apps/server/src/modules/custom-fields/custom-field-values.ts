import type { CustomField } from '@switchboard/contract';
import type { FieldIssue } from '../../kit/errors.js';

/** A contact's values, by custom field name. */
export type CustomFieldValues = Record<string, string | number | boolean | null>;

/** How long a `text` value may be. */
export const MAX_TEXT_VALUE_LENGTH = 1000;

type Definition = Pick<CustomField, 'name' | 'type' | 'isRequired' | 'options'>;
type Value = CustomFieldValues[string];

/** A calendar date written `YYYY-MM-DD` (no time, no zone), as `date` fields hold it. */
function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Why `value` does not fit `field`, or null when it does. null itself is judged by the caller. */
function problemWith(field: Definition, value: Exclude<Value, null>): string | null {
  switch (field.type) {
    case 'text':
      if (typeof value !== 'string') return 'must be a string (a text field)';
      return value.length > MAX_TEXT_VALUE_LENGTH ? `must be at most ${MAX_TEXT_VALUE_LENGTH} characters` : null;
    case 'number':
      return typeof value === 'number' ? null : 'must be a number (a number field)';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false (a boolean field)';
    case 'date':
      return typeof value === 'string' && isCalendarDate(value)
        ? null
        : 'must be a date written YYYY-MM-DD (a date field)';
    case 'select': {
      const options = field.options ?? [];
      return typeof value === 'string' && options.includes(value) ? null : `must be one of ${options.join(', ')}`;
    }
  }
}

function problemFor(field: Definition | undefined, value: Value): string | null {
  if (!field) return 'is not a custom field of this channel (see custom-fields/list)';
  if (value === null) return field.isRequired ? 'is required and cannot be cleared' : null;
  return problemWith(field, value);
}

/**
 * Checks values keyed by custom field name against the channel's definitions: each name must be a field, each
 * value fit its type and options; null clears a value, which a required field refuses. Creating a contact
 * (`creating`) also needs every required field. Issues name `customFields.<name>`.
 */
export function checkCustomFieldValues(
  definitions: readonly Definition[],
  values: Readonly<Record<string, Value>>,
  creating: boolean,
): FieldIssue[] {
  const byName = new Map(definitions.map((field) => [field.name, field]));
  const issues: FieldIssue[] = [];
  for (const [name, value] of Object.entries(values)) {
    const problem = problemFor(byName.get(name), value);
    if (problem) issues.push({ field: `customFields.${name}`, problem });
  }
  if (creating) {
    for (const field of definitions) {
      if (field.isRequired && !Object.hasOwn(values, field.name))
        issues.push({ field: `customFields.${field.name}`, problem: 'is required' });
    }
  }
  return issues;
}

/** Stored values after an update: given values replace, null removes, the rest stay. */
export function mergeCustomFieldValues(
  stored: Readonly<CustomFieldValues>,
  given: Readonly<CustomFieldValues>,
): CustomFieldValues {
  const merged: CustomFieldValues = { ...stored, ...given };
  for (const [name, value] of Object.entries(given)) if (value === null) delete merged[name];
  return merged;
}
