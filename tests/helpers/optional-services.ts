/**
 * Suites that need a service a fresh machine lacks (Redis, Chromium) skip with a loud notice there. CI names the
 * services it guarantees in SWITCHBOARD_REQUIRE (comma-separated): for those a missing service fails the run
 * instead, so a suite can never pass CI by skipping.
 */
const required = new Set(
  (process.env.SWITCHBOARD_REQUIRE ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean),
);

/** Whether the suite needing `service` must be skipped; throws when the service is required here but missing. */
export function skipWithout(service: string, available: boolean, notice: string): boolean {
  if (available) return false;
  if (required.has(service))
    throw new Error(`${service} is required here (SWITCHBOARD_REQUIRE) but missing: ${notice}`);
  console.warn(`\n  ⚠⚠⚠ ${notice}: this suite is SKIPPED.\n`);
  return true;
}
