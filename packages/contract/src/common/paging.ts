import { z } from 'zod';

/** The largest page any paginated list serves. */
export const MAX_PAGE_LIMIT = 200;
/** Far past any real list; keeps `(page - 1) * limit` a safe integer for the database's OFFSET. */
export const MAX_PAGE = 10_000_000;

/** `page` and `limit` of every paginated list (the reply carries `pagination`); `items` names what is listed. */
export const pagingParams = (items: string) => ({
  page: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(MAX_PAGE, `must be at most ${MAX_PAGE}`)
    .default(1)
    .describe(`Page number, from 1; a page past the end returns no ${items}`),
  limit: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(MAX_PAGE_LIMIT, `must be at most ${MAX_PAGE_LIMIT}`)
    .default(50)
    .describe(`Page size, 1..${MAX_PAGE_LIMIT}`),
});
