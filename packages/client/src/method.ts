import type { ConnectionErrorCode, HttpErrorCode, SwitchboardError, SwitchboardErrorCode } from './errors.js';
import type { PageArgs, PageIterable, PageReply } from './paginate.js';
import type { ReadOptions, RequestOptions } from './request-options.js';
import type { APIPromise } from './response.js';

/**
 * What a method can throw: one of its endpoint's codes, `http_<status>` for a reply that is not the envelope, or a
 * connection code.
 */
export type EndpointError<Code extends SwitchboardErrorCode> = SwitchboardError<
  Code | HttpErrorCode | ConnectionErrorCode
>;

interface ErrorGuard<Code extends SwitchboardErrorCode> {
  /**
   * Whether `error` was thrown by this method; inside the guard `error.code` is this endpoint's union of codes, so a
   * `switch` over it is checked: `if (sb.workspace.contacts.get.isError(e)) switch (e.code) { … }`.
   */
  isError(error: unknown): error is EndpointError<Code>;
}

/**
 * An endpoint whose parameters include a required one. `Options`: a write's (with `idempotencyKey`) or a read's
 * (`ReadOptions`).
 */
export interface Method<
  Params,
  Reply,
  Code extends SwitchboardErrorCode,
  Options extends ReadOptions = RequestOptions,
> extends ErrorGuard<Code> {
  (params: Params, options?: Options): APIPromise<Reply>;
}

/** An endpoint whose parameters are all optional. */
export interface MethodOptionalParams<
  Params,
  Reply,
  Code extends SwitchboardErrorCode,
  Options extends ReadOptions = RequestOptions,
> extends ErrorGuard<Code> {
  (params?: Params, options?: Options): APIPromise<Reply>;
}

interface AllPages<Params, Reply extends PageReply> {
  /**
   * Every item across all pages, fetched as the loop asks: `for await (const item of method.all({ … }))`;
   * `.toArray({ limit })` collects the first `limit`. `options` (signal, timeout) apply to every page.
   */
  all(...args: PageArgs<Params>): PageIterable<Reply['data'][number]>;
}

/** A paginated list with a required parameter (e.g. `platformId`): a read. */
export interface ListMethod<Params, Reply extends PageReply, Code extends SwitchboardErrorCode>
  extends Method<Params, Reply, Code, ReadOptions>, AllPages<Params, Reply> {}

/** A paginated list whose parameters are all optional: a read. */
export interface ListMethodOptionalParams<Params, Reply extends PageReply, Code extends SwitchboardErrorCode>
  extends MethodOptionalParams<Params, Reply, Code, ReadOptions>, AllPages<Params, Reply> {}
