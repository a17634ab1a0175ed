import type { Pagination } from './generated/api.js';

/** Any SDK method whose reply is a page: `{ data: [...], pagination: { page, pages, ... } }`. */
export type PagedMethod = (params?: never) => Promise<{ data: readonly unknown[]; pagination: Pagination }>;

/**
 * The method's parameters without `page`, which paginate drives itself. (`NonNullable` here collapses to never under TS
 * 5.9.)
 */
export type PagedParams<M extends PagedMethod> = Omit<Exclude<Parameters<M>[0], undefined>, 'page'>;

export type PagedItem<M extends PagedMethod> = Awaited<ReturnType<M>>['data'][number];

/**
 * Every item across all pages, fetched one page at a time as the loop asks for more:
 * `for await (const contact of paginate(sb.workspace.contacts.list, { search: 'ada', limit: 200 }))`.
 * Stops after the last page the server reports (or at the first empty page).
 */
export async function* paginate<M extends PagedMethod>(
  method: M,
  params?: PagedParams<M>,
): AsyncGenerator<PagedItem<M>, void, undefined> {
  const call = method as unknown as (params: object) => ReturnType<M>;
  for (let page = 1; ; page++) {
    const reply = await call({ ...params, page });
    yield* reply.data as PagedItem<M>[];
    if (reply.data.length === 0 || page >= reply.pagination.pages) return;
  }
}
