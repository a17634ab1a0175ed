import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * How the server's lines reach stdout: in writes of at least 4 KB, or of what 100 ms gathered, instead of one write
 * per line (a request logs one line: that write was the largest part of request logging's CPU; docs/benchmarks.md,
 * channels/list). pino writes what is left when the process exits.
 */
const BATCHED = { minLength: 4096, periodicFlush: 100 };

/** JSON lines on stdout, batched (stderr for the CLI, whose stdout carries results: line by line, synchronously). */
export function createLogger(level: string, destination: 1 | 2 = 1): Logger {
  return pino(
    {
      level,
      base: { service: 'switchboard' },
      redact: {
        paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie'],
        censor: '[redacted]',
      },
    },
    pino.destination(destination === 2 ? { fd: 2, sync: true } : { fd: 1, sync: false, ...BATCHED }),
  );
}
