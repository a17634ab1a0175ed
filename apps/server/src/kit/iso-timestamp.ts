/**
 * For the hand-written listing SQL, which returns plain rows. Timestamps are rendered as ISO 8601 UTC by PostgreSQL
 * itself, so rows go to JSON untouched.
 */
export const isoTime = (expression: string) =>
  `to_char((${expression}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A timestamp column as ISO 8601 UTC text, under the column's name (or `alias`). */
export const isoTimestamp = (column: string, alias = column.split('.').pop()!) => `${isoTime(column)} as "${alias}"`;
