/** A canonical UUID (any version), as PostgreSQL's `uuid` prints it; case-insensitive on input. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a reference is a UUID (an id) rather than a human reference such as a shortId or a domain. */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
