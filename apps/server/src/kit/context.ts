import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.js';

export type { Logger };

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

/**
 * What a service runs with: an EntityManager of its own, the caller, a logger and an id for the log lines.
 * The HTTP layer builds one per request; the CLI, jobs and tests can build one just as well.
 */
export interface ServiceContext {
  em: EntityManager;
  caller: Caller;
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
