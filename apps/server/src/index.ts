/** What the end-to-end tests and tools use to run the real service in-process. */
export { createApp, type AppDeps } from './app.js';
export { ConfigError, loadConfig, type Config } from './config.js';
export { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded-postgres.js';
export { migrate, openDatabase, ormConfig, type Database, type Orm } from './db/orm.js';
export { demoSeed, DEMO_PASSWORD } from './db/seed/demo.js';
export { parseSeedFile, seed, SeedError, type SeedResult } from './db/seed/seed.loader.js';
export type { SeedFile } from './db/seed/seed.schema.js';
export { createLogger, type Logger } from './logger.js';
export { createApiKey, revokeApiKey } from './modules/api-keys/api-key.service.js';
export { createMessagingProviders, statusSink, type MessagingProviders } from './modules/messages/provider/providers.js';
export { startServer, type RunningServer } from './server.js';
