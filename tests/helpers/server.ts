import { createClient, type SwitchboardClient } from '@switchboard/client';
import {
  createLogger,
  loadConfig,
  openDatabase,
  seed,
  startServer,
  type Database,
  type RunningServer,
  type SeedFile,
  type SeedResult,
} from '@switchboard/server';
import type { AxiosInstance } from 'axios';
import { contractCheckedHttp } from './contract-check.js';
import { createFreshDatabase } from './database.js';
import { untilIdle, type JobBacklog } from './worker-idle.js';
import { TEST_SECRETS_KEY } from './secrets-key.js';

export interface TestServer {
  baseUrl: string;
  databaseUrl: string;
  database: Database;
  /** Loads a seed file through the same loader (services and job queue) as `pnpm cli seed`. */
  seed(file: SeedFile): Promise<SeedResult>;
  /** The typed SDK, as an integrator uses it; every reply is checked against the contract (contract-check.ts). */
  client(apiKey: string): SwitchboardClient;
  /** Plain HTTP for what the SDK will not send (bad keys, bad JSON, odd methods). Never throws on status; replies
   * from contract routes are checked against the contract. */
  http: AxiosInstance;
  /** The running server's job queue: queues a module's job as the module would (e.g. inside a transaction). */
  jobs: RunningServer['jobs'];
  /** http://127.0.0.1:<port>/metrics when METRICS_PORT is set. */
  metricsUrl?: string;
  /** Resolves once the job worker has no job due or running (see worker-idle.ts), with the jobs left for later. */
  untilIdle(timeoutMs?: number): Promise<JobBacklog>;
  /** Stops the server (requests, worker, services) as close() does, but leaves its database open until close(). */
  stopServing(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real service on a random port against a fresh database, started the way main.ts starts it.
 * `env` overrides configuration (e.g. REDIS_URL).
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const databaseUrl = env.DATABASE_URL ?? (await createFreshDatabase());
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    MIGRATE_ON_START: 'true',
    SECRETS_KEY: TEST_SECRETS_KEY,
    ...env,
    PORT: '0',
    DATABASE_URL: databaseUrl,
  });
  const logger = createLogger(config.LOG_LEVEL, 2);
  const database = await openDatabase(config, logger, 10);
  const running = await startServer(config, database, logger);
  const baseUrl = `http://127.0.0.1:${running.port}`;
  let stopped: Promise<void> | undefined;
  const stopServing = () => (stopped ??= running.close());
  return {
    baseUrl,
    databaseUrl,
    database,
    seed: (file) => seed(database.orm.em.fork(), file, running.services, running.jobs),
    // No retries: suites assert the server's own replies (a 429, a 503) as they come.
    client: (apiKey) =>
      createClient({ baseUrl, apiKey, maxRetries: 0, axios: contractCheckedHttp({ timeout: 30_000 }) }),
    http: contractCheckedHttp({ baseURL: baseUrl, validateStatus: () => true }),
    jobs: running.jobs,
    metricsUrl: running.metricsPort === undefined ? undefined : `http://127.0.0.1:${running.metricsPort}/metrics`,
    untilIdle: (timeoutMs) => untilIdle(running.jobBacklog, timeoutMs),
    stopServing,
    async close() {
      await stopServing();
      await database.close();
    },
  };
}
