import { toSwitchboardError } from './errors.js';
import type { ErrorCode } from './generated/api.js';
import type { ReadOptions } from './request-options.js';
import { APIPromise, type WithResponse } from './response.js';

/** The parameters a `get` takes besides the id: where to look (`channelId`, `platformId`), not list filters. */
type Scope<ListParams> = Pick<ListParams, Extract<keyof ListParams, 'channelId' | 'platformId'>>;

/**
 * `get(id, params?)`: one item of a list by its id, `{ success, data }` like every `get` of the API; not there
 * (or not in this channel): NotFoundError with the code of a lookup by that id.
 */
export interface GetMethod<ListParams, Item> {
  (
    id: string,
    ...args: {} extends Scope<ListParams>
      ? [params?: Scope<ListParams>, options?: ReadOptions]
      : [params: Scope<ListParams>, options?: ReadOptions]
  ): APIPromise<{ success: true; data: Item }>;
}

type ListCall = (params: object, options?: ReadOptions) => APIPromise<{ data: readonly unknown[] }>;

/** The `get` of one group, over its list method (the client's own, with its retries and errors). */
export function getOverList(list: ListCall, getter: { idParam: string; notFound: ErrorCode }, operation: string) {
  return (id: string, params: object = {}, options?: ReadOptions) =>
    new APIPromise(
      list({ ...params, [getter.idParam]: id }, options)
        .withResponse()
        .then(({ data, response }): WithResponse<{ success: true; data: unknown }> => {
          const [item] = data.data;
          if (item === undefined) {
            const message = `No ${getter.idParam.replace(/Id$/, '')} ${id} here.`;
            const body = { success: false, error: getter.notFound, message };
            throw toSwitchboardError(404, body, response.headers, operation);
          }
          return { data: { success: true, data: item }, response };
        }),
    );
}
