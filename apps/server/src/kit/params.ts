import { ValidationError } from './errors.js';

/**
 * For parameters where exactly one of two names the target (contactId or phone, name or labelId): the contract's
 * `requireOneOf` documents it, this enforces it with a 400 naming the parameter.
 */
export function requireExactlyOne(params: Record<string, unknown>, first: string, second: string): void {
  const given = [first, second].filter((name) => params[name] !== undefined);
  if (given.length === 0) throw ValidationError.field(first, `is required (or ${second})`);
  if (given.length === 2) throw ValidationError.field(second, `cannot be combined with ${first}: give one of them`);
}
