const DAY_MS = 24 * 3_600_000;
/** Meta's edit budget for an approved template: one edit a day, ten in thirty days. */
const EDITS_PER_30_DAYS = 10;

/**
 * When an approved template may be edited next, given its edits (ISO times, oldest first) in the last 30 days; or
 * undefined when it may be edited now.
 */
export function nextEditAllowedAt(edits: readonly string[], now: Date): Date | undefined {
  const times = edits.map((at) => Date.parse(at)).filter((at) => now.getTime() - at < 30 * DAY_MS);
  const candidates: number[] = [];
  const last = times.at(-1);
  if (last !== undefined && now.getTime() - last < DAY_MS) candidates.push(last + DAY_MS);
  // The tenth edit back leaves the 30-day window when the oldest that counts does.
  if (times.length >= EDITS_PER_30_DAYS) candidates.push(times[times.length - EDITS_PER_30_DAYS]! + 30 * DAY_MS);
  return candidates.length === 0 ? undefined : new Date(Math.max(...candidates));
}
