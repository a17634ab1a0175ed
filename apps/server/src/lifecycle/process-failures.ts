import type { Logger } from '../logger.js';

/**
 * What the server process does with a failure no code handled; main.ts, which owns the process, installs it (the
 * tests' in-process servers leave these to vitest, which reports them as errors).
 *
 * - A promise rejected with nobody waiting for it (`unhandledRejection`): one piece of work failed and nothing was
 *   told; the rest of the process is as it was, since a rejection unwinds only that promise's chain. Node's default
 *   since v15 is to exit, which would end every tenant's requests and streams for one request's fault: it is
 *   logged at `error` with its reason, and the server goes on.
 * - An exception thrown out of a callback (`uncaughtException`): it cut through whatever was running mid-way, so
 *   shared state may be half-changed, and Node's documentation says resuming is not safe. It is logged at `fatal`,
 *   then the orderly stop a SIGTERM starts runs (drain requests, stop the worker, close the pool, stop an embedded
 *   database) and the process exits 1 for its supervisor to restart it; a stop that hangs is cut at `deadlineMs`.
 */
export function handleProcessFailures(logger: Logger, stop: (reason: string) => void, deadlineMs: number): void {
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection: logged, the server goes on');
  });
  process.on('uncaughtException', (error, origin) => {
    logger.fatal({ err: error, origin }, 'uncaught exception: stopping');
    process.exitCode = 1;
    setTimeout(() => process.exit(1), deadlineMs).unref();
    stop('uncaught exception');
  });
}
