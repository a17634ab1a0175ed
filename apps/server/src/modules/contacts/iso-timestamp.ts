/**
 * For the hand-written listing SQL, which returns plain rows. Timestamps are rendered as ISO 8601 UTC by PostgreSQL
 * itself, so rows go to JSON untouched.
 */
export const isoTimestamp = (column: string, alias = column.split('.').pop()!) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "${alias}"`;
