import type { AccessRule, RateClass } from '@switchboard/contract';
import type { Response } from 'express';
import type { ZodTypeAny } from 'zod';
import type { Caller } from './context.js';
import type { RouteDeps } from './implement.js';
import type { Logger } from '../logger.js';

/** What the contract says about a streaming endpoint (e.g. EVENT_STREAM): where it is and how it is guarded. */
interface StreamRouteDefinition {
  operation: string;
  path: string;
  rateClass: RateClass;
  access: AccessRule;
  params: ZodTypeAny;
}

/** One accepted request to a streaming endpoint, authenticated and with its query parameters validated. */
export interface StreamRequest<Params = unknown> {
  params: Params;
  caller: Caller;
  /** The `Last-Event-ID` header, when the client resumes. */
  lastEventId: string | undefined;
  /**
   * The caller resolved again by the rules a new request would meet (an API key through the key cache, which a
   * revocation evicts as it commits; the portal's session as its pages check it): the caller, or that request's
   * refusal thrown (an AppError below 500: the key revoked, the platform inactive, the session over).
   */
  recheck(): Promise<Caller>;
  /** Where the stream is written; nothing is written yet, so a typed error thrown before the first write is the
   * envelope. */
  res: Response;
  /** Aborted when the client goes away or the server stops. */
  signal: AbortSignal;
  log: Logger;
}

/**
 * An endpoint that answers with a stream (Server-Sent Events) instead of one envelope: ts-rest cannot serve it, so
 * http/ mounts it with the same key authentication, access rule and rate class as the contract's endpoints.
 */
export interface StreamRoute {
  route: StreamRouteDefinition;
  serve(deps: RouteDeps): (request: StreamRequest) => Promise<void>;
}
