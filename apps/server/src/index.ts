/** What the end-to-end tests and tools use to run the real service in-process. */
export { createApp, type AppDeps } from './app.js';
export { CONFIG_VARIABLES, ConfigError, loadConfig, type Config } from './config.js';
export { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded-postgres.js';
export { listenForNotifications } from './db/notification-listener.js';
export { migrate, type Database, type Orm } from './db/orm.js';
export { demoExampleIds, demoSeed, DEMO_PASSWORD } from './demo.js';
export { idempotencyStore, idempotencySweeper } from './modules/index.js';
export { SeedError } from './kit/seed.js';
export { startServices, type Services } from './kit/services.js';
export { createLogger, type Logger } from './logger.js';
export { createApiKey, revokeApiKey } from './modules/api-keys/index.js';
export { statusSink } from './modules/sending/index.js';
export { receiveSandboxMessage } from './modules/sandbox/index.js';
export { emitEvents } from './modules/emitter/index.js';
export { startServer, type RunningServer } from './server.js';
export { openDatabase, ormConfig, seed, serviceProviders, type SeedFile, type SeedResult } from './wiring.js';
