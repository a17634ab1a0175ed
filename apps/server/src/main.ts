import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import { createApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { seedDemoIfEmpty } from './db/seed/demo.js';
import { migrate, openDatabase } from './db/orm.js';
import type { SeedResult } from './db/seed/seed.loader.js';
import { createRateLimiters } from './http/rate-limit.js';
import { createLogger } from './logger.js';

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
const applied = await migrate(database.orm);
if (applied.length) logger.info({ applied }, 'migrations applied');
const demo = await seedDemoIfEmpty(database.orm.em.fork());

const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : undefined;
redis?.on('error', (error) => logger.warn({ err: error }, 'redis error'));
const app = createApp({ orm: database.orm, logger, rateLimiters: createRateLimiters(redis), trustProxy: config.TRUST_PROXY });

const server: Server = app.listen(config.PORT, () => {
  const baseUrl = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  logger.info({ port: config.PORT, rateLimitStore: redis ? 'redis' : 'memory' }, `Switchboard listening on ${baseUrl}`);
  if (demo) printDemoBanner(baseUrl, demo);
});

server.on('error', (error: NodeJS.ErrnoException) => {
  logger.fatal({ err: error }, error.code === 'EADDRINUSE' ? `Port ${config.PORT} is already in use; set PORT to another port` : 'server error');
  void shutdown('listen-error', 1);
});

let stopping = false;
async function shutdown(signal: string, exitCode = 0) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down: draining requests');
  const forced = setTimeout(() => {
    logger.warn('drain timed out; closing connections');
    server.closeAllConnections();
  }, config.SHUTDOWN_TIMEOUT_MS);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  clearTimeout(forced);
  await redis?.quit().catch(() => undefined);
  await database.close();
  logger.info('stopped');
  process.exit(exitCode);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
