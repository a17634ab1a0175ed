export interface RetryPolicy {
  /** Seconds before retry 1, 2, …; the last value repeats. */
  schedule: readonly number[];
  /** No retry is scheduled later than this long after the event. */
  windowHours: number;
}

/**
 * When to try again after `attemptsMade` failed attempts of something first queued at `since`, or null when
 * the retry window is over and the delivery is given up.
 */
export function nextRetryAt(policy: RetryPolicy, attemptsMade: number, since: Date, now = new Date()): Date | null {
  const { schedule } = policy;
  const seconds = schedule[Math.min(attemptsMade, schedule.length) - 1] ?? schedule[0] ?? 0;
  const next = new Date(now.getTime() + seconds * 1000);
  return next.getTime() <= since.getTime() + policy.windowHours * 3_600_000 ? next : null;
}
