import type { EntityManager } from '@mikro-orm/postgresql';
import type { EndpointMetadata } from '@switchboard/contract';
import type { Request } from 'express';
import type { Logger } from '../logger.js';

/** Who is calling: resolved from the API key by the auth middleware. */
export interface Caller {
  userId: string;
  apiKeyId: string;
  platformId: string;
  name: string;
  email: string;
  platformAccess: boolean;
  permissions: readonly string[];
  /** Channels the user is authorized for, oldest first. */
  channelIds: readonly string[];
}

/** What a service needs from the request: the caller, a request-scoped EntityManager and a logger. */
export interface RequestContext {
  caller: Caller;
  em: EntityManager;
  log: Logger;
  requestId: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by the auth middleware on API routes. */
      caller?: Caller;
    }
  }
}

/** The contract metadata ts-rest attaches to the matched route. */
export function routeMetadata(req: Request): EndpointMetadata | undefined {
  const route = (req as Request & { tsRestRoute?: { metadata?: EndpointMetadata } }).tsRestRoute;
  return route?.metadata;
}
