import type { Pagination } from '@switchboard/contract';

/** The `pagination` of a paginated reply. */
export const paginationOf = (page: number, limit: number, total: number): Pagination => ({
  page,
  limit,
  total,
  pages: Math.ceil(total / limit),
});

/** The OFFSET of a page. */
export const offsetOf = ({ page, limit }: { page: number; limit: number }) => (page - 1) * limit;
