import { ConfigError, loadConfig, type Config } from './config.js';
import { SecretsKeyError } from './kit/secrets.js';
import { watchLauncher } from './lifecycle/launcher.js';
import { handleProcessFailures } from './lifecycle/process-failures.js';
import { createLogger } from './logger.js';
import { startServer, type RunningServer } from './server.js';
import { openDatabase, type SeedResult } from './wiring.js';

/** What the stop after an uncaught exception may take beyond the drain: the worker, the pool, an embedded database. */
const STOP_AFTER_DRAIN_MS = 30_000;

/** A configuration problem (an unusable SECRETS_KEY too) ends start-up with its one line, never a stack trace. */
function exitOnConfigError(error: unknown): never {
  if (error instanceof ConfigError || error instanceof SecretsKeyError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    exitOnConfigError(error);
  }
}

function printDemoBanner(baseUrl: string, demo: SeedResult) {
  const apiKey = demo.users?.owner?.apiKey;
  const channelId = demo.channels?.support;
  process.stdout.write(
    [
      '',
      '  Switchboard demo data created. This API key is shown once; keep it:',
      '',
      `    ${apiKey}`,
      '',
      '  Try it:',
      `    curl -s -X POST ${baseUrl}/api/workspace/v1/channels/list -H "X-API-Key: ${apiKey}"`,
      `    curl -s -X POST ${baseUrl}/api/workspace/v1/contacts/list -H "X-API-Key: ${apiKey}" ` +
        `-H "Content-Type: application/json" -d '{"channelId":"${channelId}","search":"ada"}'`,
      '',
      '  Ada asked about her order minutes ago: answer her, then look at the inbox:',
      `    curl -s -X POST ${baseUrl}/api/workspace/v1/chat/message/send -H "X-API-Key: ${apiKey}" ` +
        `-H "Content-Type: application/json" -d '{"channelId":"${channelId}","to":"15550000001",` +
        `"text":"Hi Ada, A-1001 ships today.","replyTo":"wamid.DEMO0002"}'`,
      `    curl -s -X POST ${baseUrl}/api/workspace/v1/chat/conversations/list -H "X-API-Key: ${apiKey}" ` +
        `-H "Content-Type: application/json" -d '{"channelId":"${channelId}","unread":true}'`,
      '',
      '',
    ].join('\n'),
  );
}

const config = readConfig();
const logger = createLogger(config.LOG_LEVEL);
// Listening from the first moment: a stop requested during start-up waits for it, then closes cleanly, so the
// embedded PostgreSQL (a process of its own) is never left behind.
// A failure nothing handled is logged; an uncaught exception also stops the server this way (process-failures.ts).
const stopRequested = new Promise<string>((resolve) => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => resolve(signal));
  watchLauncher((pid) => resolve(`launcher process ${pid} exited`));
  handleProcessFailures(logger, resolve, config.SHUTDOWN_TIMEOUT_MS + STOP_AFTER_DRAIN_MS);
});
const database = await openDatabase(config, logger).catch(exitOnConfigError);

let running: RunningServer;
try {
  running = await startServer(config, database, logger);
} catch (error) {
  const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
  logger.fatal(
    { err: error },
    inUse ? `Port ${config.PORT} is already in use; set PORT to another port` : 'start-up failed',
  );
  await database.close();
  process.exit(1);
}

const baseUrl = config.PUBLIC_URL ?? `http://localhost:${running.port}`;
logger.info(`Switchboard ready on ${baseUrl}`);
if (running.demo) printDemoBanner(baseUrl, running.demo);

const reason = await stopRequested;
logger.info({ reason }, 'shutting down: draining requests');
try {
  await running.close();
  await database.close();
} catch (error) {
  logger.error({ err: error }, 'shutdown was not clean');
  process.exit(1);
}
logger.info('stopped');
// 0, or 1 after an uncaught exception.
process.exit();
