import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.js';

export type { Logger };

/** Who is calling: resolved from the API key by the auth middleware. */
export interface Caller {
  userId: string;
  /** The key the request came with; absent for a signed-in portal user. */
  apiKeyId?: string;
  platformId: string;
  /** platforms.is_active: an inactive platform's keys are refused (403 `platform_inactive`). */
  platformActive: boolean;
  name: string;
  email: string;
  platformAccess: boolean;
  permissions: readonly string[];
  /** Channels the user is authorized for, oldest first. */
  channelIds: readonly string[];
}

/**
 * What every service function takes first: the EntityManager it works in (a fork of its own, or the transaction its
 * caller opened). Jobs, the CLI, the seed loader and tests build one as easily as a request does.
 */
export interface ServiceContext {
  em: EntityManager;
}

/**
 * A service call on behalf of an API key's user: who is calling, a logger and an id for the log lines. The HTTP
 * layer builds one per request (kit/implement.ts); the CLI and tests can build one just as well.
 */
export interface CallerContext extends ServiceContext {
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
