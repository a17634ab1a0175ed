import { AUTOMATION_PLACEHOLDER, placeholderField } from '@switchboard/contract';

type CustomFieldValue = string | number | boolean | null;

/** What a text's `{{contact.…}}` and `{{customField.…}}` placeholders read. */
export interface PlaceholderContact {
  name: string;
  phone: string;
  customFields: Record<string, CustomFieldValue>;
}

const isSet = (value: CustomFieldValue | undefined) => value !== undefined && value !== null;

/** Distinct `{{n}}` placeholders in a template body: how many values a send must carry. */
export function countPlaceholders(body: string): number {
  return new Set([...body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => m[1])).size;
}

/** The text with each placeholder replaced by the contact's value (an unset custom field: empty). */
export function fillPlaceholders(text: string, contact: PlaceholderContact): string {
  return text.replace(AUTOMATION_PLACEHOLDER, (whole, inner: string) => {
    const field = placeholderField(inner);
    if (!field) return whole;
    const value = field.kind === 'contact' ? contact[field.name as 'name' | 'phone'] : contact.customFields[field.name];
    return isSet(value) ? String(value) : '';
  });
}

/** The custom field names a text's placeholders refer to. */
export const placeholderCustomFields = (text: string): string[] =>
  [...text.matchAll(AUTOMATION_PLACEHOLDER)].flatMap((match) => {
    const field = placeholderField(match[1]!);
    return field?.kind === 'customField' ? [field.name] : [];
  });

/** The placeholders of a text that name no field (`{{order}}`), as written. */
export const unknownPlaceholders = (text: string): string[] =>
  [...text.matchAll(AUTOMATION_PLACEHOLDER)].filter((match) => !placeholderField(match[1]!)).map((match) => match[0]);
