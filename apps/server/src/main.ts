import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/orm.js';
import { seedDemoIfEmpty } from './db/seed/demo.js';
import type { SeedResult } from './db/seed/seed.loader.js';
import { createLogger } from './logger.js';
import { startServer, type RunningServer } from './server.js';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
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
      `    curl -s -X POST ${baseUrl}/api/workspace/v1/contacts/list -H "X-API-Key: ${apiKey}" -H "Content-Type: application/json" -d '{"channelId":"${channelId}","search":"ada"}'`,
      '',
      '',
    ].join('\n'),
  );
}

const config = readConfig();
const logger = createLogger(config.LOG_LEVEL);
const database = await openDatabase(config, logger);

let running: RunningServer;
try {
  running = await startServer(config, database, logger);
} catch (error) {
  const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
  logger.fatal({ err: error }, inUse ? `Port ${config.PORT} is already in use; set PORT to another port` : 'start-up failed');
  await database.close();
  process.exit(1);
}

const demo = await seedDemoIfEmpty(database.orm.em.fork());
const baseUrl = config.PUBLIC_URL ?? `http://localhost:${running.port}`;
logger.info(`Switchboard ready on ${baseUrl}`);
if (demo) printDemoBanner(baseUrl, demo);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down: draining requests');
  await running.close();
  await database.close();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
