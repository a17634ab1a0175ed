import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON lines on stdout (stderr for the CLI, whose stdout carries results). */
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
    pino.destination({ fd: destination, sync: destination === 2 }),
  );
}
