/**
 * `instanceof` across the ESM and CommonJS builds (the dual-package hazard): an app that `import`s the SDK while a
 * library it uses `require`s it holds two copies of every class, and an error thrown by one copy is not an instance
 * of the other's class. Each instance carries the names of its classes under a symbol from the global registry,
 * shared by both copies, and `Symbol.hasInstance` checks that list, so `e instanceof RateLimitError` holds whichever
 * copy threw it.
 */
const BRAND = Symbol.for('@switchboard/client.classes');

/** The class names of `instance`, from its own class up, each class naming itself by its static `kind`. */
export function brand(instance: object, ownClass: { kind?: string }): void {
  const kinds: string[] = [];
  for (let at: { kind?: string } | null = ownClass; at?.kind; at = Object.getPrototypeOf(at) as { kind?: string })
    if (Object.hasOwn(at, 'kind')) kinds.push(at.kind);
  Object.defineProperty(instance, BRAND, { value: kinds, enumerable: false });
}

/** Whether `value` was made by the class named `kind` (or a subclass), in any copy of the SDK. */
export function hasBrand(value: unknown, kind: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const kinds = (value as { [BRAND]?: unknown })[BRAND];
  return Array.isArray(kinds) && kinds.includes(kind);
}
