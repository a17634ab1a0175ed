import type { Pagination } from './generated/api.js';
import type { ReadOptions } from './request-options.js';

/** A page of a paginated list: `{ data: [...], pagination: { page, pages, ... } }`. */
export interface PageReply<Item = unknown> {
  data: readonly Item[];
  pagination: Pagination;
}

/** Any method whose reply is a page, whatever its parameters (required or optional). */
export type PagedMethod<Params, Item> = (params: Params, options?: ReadOptions) => PromiseLike<PageReply<Item>>;

/** A method's parameters without `page`, which the iteration drives itself (each form of a union kept whole). */
export type PageParams<Params> = Params extends unknown ? Omit<Params, 'page'> : never;

/** `(params?, options?)` when every parameter is optional, `(params, options?)` when one is required. */
export type PageArgs<Params> =
  {} extends PageParams<Params>
    ? [params?: PageParams<Params>, options?: ReadOptions]
    : [params: PageParams<Params>, options?: ReadOptions];

/** The most items `toArray` collects: a bound on memory, as Stripe's `autoPagingToArray` has. */
const TO_ARRAY_MAX = 10_000;

/**
 * Every item across all pages, fetched one page at a time as the loop asks for more:
 * `for await (const contact of sb.workspace.contacts.list.all({ search: 'ada' }))`. Each iteration starts again
 * at page 1; `options` (signal, timeout) apply to every page's request.
 */
export interface PageIterable<Item> extends AsyncIterable<Item> {
  /** The first `limit` items (at most 10,000), fetching only the pages they need. */
  toArray(bound: { limit: number }): Promise<Item[]>;
}

/**
 * Every item of a paginated list: `for await (const c of paginate(sb.workspace.contacts.list, { search }))`, the
 * generic form of each list method's `.all()`. Stops after the last page the server reports (or at an empty page).
 */
export function paginate<Params, Item>(
  method: PagedMethod<Params, Item>,
  ...[params, options]: PageArgs<Params>
): PageIterable<Item> {
  async function* items(): AsyncGenerator<Item, void, undefined> {
    for (let page = 1; ; page++) {
      const reply = await method({ ...params, page } as Params, options);
      yield* reply.data;
      if (reply.data.length === 0 || page >= reply.pagination.pages) return;
    }
  }
  return {
    [Symbol.asyncIterator]: items,
    async toArray({ limit }) {
      if (!Number.isInteger(limit) || limit < 1 || limit > TO_ARRAY_MAX)
        throw new RangeError(`toArray: limit must be an integer from 1 to ${TO_ARRAY_MAX}, got ${limit}`);
      const collected: Item[] = [];
      for await (const item of items()) {
        collected.push(item);
        if (collected.length >= limit) break;
      }
      return collected;
    },
  };
}
