import type { Logger } from './logger.js';

/**
 * Errors that say a dependency cannot be reached or cannot answer in time, not that the request was wrong:
 * sockets refused or cut, PostgreSQL shutting down / starting / out of connections / cancelling a query at
 * statement_timeout, and pg-pool giving up waiting for a connection.
 */
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
const OUTAGE_MESSAGES = new RegExp(
  [
    'timeout exceeded when trying to connect',
    'Connection terminated',
    'Client has encountered a connection error',
    'connect ECONNREFUSED',
  ].join('|'),
  'i',
);

/** Accepts error-like objects too: pg-boss reports worker failures as plain copies of the driver's error. */
export function isDependencyOutage(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string' && OUTAGE_CODES.has(code)) return true;
  if (typeof message === 'string' && OUTAGE_MESSAGES.test(message)) return true;
  return isDependencyOutage(cause, depth + 1);
}

/** `via`: the logger of the request that noticed the change (its line then carries the request id), if any. */
export interface OutageLog {
  /** Logs the first failure of an outage; later ones are silent until up(). */
  down(details: Record<string, unknown>, via?: Logger): void;
  /**
   * Logs the end of an outage, if one was going on. `via` is called only then: every API reply reports here, and a
   * request's logger is made on first use (http/request-log.ts).
   */
  up(via?: () => Logger): void;
}

/** One warn line when a dependency goes away and one when it is back, instead of one per failed call. */
export function outageLog(logger: Logger, messages: { down: string; up: string }): OutageLog {
  let downSince: number | undefined;
  return {
    down(details, via = logger) {
      if (downSince !== undefined) return;
      downSince = Date.now();
      via.warn(details, messages.down);
    },
    up(via = () => logger) {
      if (downSince === undefined) return;
      via().warn({ downForMs: Date.now() - downSince }, messages.up);
      downSince = undefined;
    },
  };
}
