import { describe, expect, it } from 'vitest';
import { createFreshDatabase } from '../helpers/database.js';
import { spawnServer } from '../helpers/processes.js';

/** Lines of a JSON log with the given message. */
const linesWith = (output: string, msg: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === msg);

describe('the job worker switch', () => {
  it(
    'names every named worker at start-up, and reads the former DELIVERY_WORKER with a warning',
    { timeout: 120_000 },
    async () => {
      const databaseUrl = await createFreshDatabase();
      const env = { DATABASE_URL: databaseUrl, PORT: '0', MIGRATE_ON_START: 'true', DEMO: 'false' };
      const stop = async (server: ReturnType<typeof spawnServer>) => {
        server.child.kill('SIGTERM');
        await server.exited;
      };

      const worker = spawnServer(env);
      await worker.waitFor(/Switchboard listening/, 60_000);
      await stop(worker);
      const [started] = linesWith(worker.output(), 'job worker started');
      expect(started?.workers).toEqual(
        expect.arrayContaining(['broadcasts.scheduler', 'conversations.snooze', 'idempotency.sweep']),
      );

      const legacy = spawnServer({ ...env, DELIVERY_WORKER: 'false' });
      await legacy.waitFor(/Switchboard listening/, 60_000);
      await stop(legacy);
      expect(linesWith(legacy.output(), 'job worker started')).toEqual([]);
      expect(legacy.output()).toMatch(/job worker off \(JOB_WORKER=false\)/);
      expect(legacy.output()).toMatch(/DELIVERY_WORKER is deprecated[^\n]*rename it to JOB_WORKER/);
    },
  );
});
