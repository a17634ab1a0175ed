import type { ZodError, ZodIssue } from 'zod';
import type { FieldIssue } from '../kit/errors.js';

const DEFAULT_MESSAGE_PREFIXES = ['Expected', 'Required', 'Invalid', 'String must', 'Number must', 'Array must'];

function describe(issue: ZodIssue): string {
  // Messages written in the contract ("must be at most 200") are already for people: keep them.
  if (!DEFAULT_MESSAGE_PREFIXES.some((prefix) => issue.message.startsWith(prefix))) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.received === 'undefined') return 'is required';
      if (issue.received === 'null') return 'must not be null';
      return `must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`} (got ${issue.received})`;
    case 'too_small':
      if (issue.type === 'string')
        return issue.minimum === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
      return `must be at least ${issue.minimum}`;
    case 'too_big':
      return issue.type === 'string'
        ? `must be at most ${issue.maximum} characters`
        : `must be at most ${issue.maximum}`;
    case 'invalid_enum_value':
      return `must be one of ${issue.options.join(', ')}`;
    case 'invalid_literal':
      return `must be ${JSON.stringify(issue.expected)}`;
    default:
      return issue.message.toLowerCase();
  }
}

/** Turns zod's issues into `field: why` pairs, one per field, in the order the caller wrote them. */
export function zodIssues(error: ZodError, location?: string): FieldIssue[] {
  const seen = new Set<string>();
  const issues: FieldIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      // One `name: unknown parameter` per key, so a typo reads like any other bad field.
      for (const key of issue.keys)
        issues.push({ field: [...issue.path, key].join('.'), problem: 'unknown parameter' });
      continue;
    }
    const field = issue.path.length ? issue.path.join('.') : (location ?? '');
    if (seen.has(field)) continue;
    seen.add(field);
    issues.push({ field, problem: describe(issue) });
  }
  return issues;
}
