import { createLogger, listenForNotifications } from '@switchboard/server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshDatabase } from '../helpers/database.js';

/**
 * What makes the caller cache exact across instances: once `catchUp()` answers true, every notification of a
 * transaction that committed before the call has been delivered. Checked right after each commit, without the
 * catch-up, the notice has often not arrived yet (the count is printed); after it, it always has.
 */
describe('LISTEN connection catch-up', { timeout: 60_000 }, () => {
  const heard = new Set<string>();
  let listening!: Promise<void>;
  let listener: ReturnType<typeof listenForNotifications>;
  let writer: pg.Client;

  beforeAll(async () => {
    const url = await createFreshDatabase();
    listening = new Promise((resolve) => {
      listener = listenForNotifications(
        { url, channel: 'catch_up_test', logger: createLogger('silent') },
        { notified: (payload) => heard.add(payload), listening: resolve, lost: () => undefined },
      );
    });
    writer = new pg.Client({ connectionString: url });
    await writer.connect();
  });
  afterAll(async () => {
    await writer?.end();
    await listener?.stop();
  });

  it('has delivered every notice committed before the call', async () => {
    await listening;
    let notYetAtCommit = 0;
    for (let i = 0; i < 300; i++) {
      await writer.query(`select pg_notify('catch_up_test', $1)`, [`n${i}`]);
      if (!heard.has(`n${i}`)) notYetAtCommit += 1;
      expect(await listener.catchUp()).toBe(true);
      expect(heard.has(`n${i}`), `notice n${i}`).toBe(true);
    }
    console.info(`catch-up: ${notYetAtCommit} of 300 notices had not arrived when their commit returned`);
  });

  it('answers callers that overlap (sharing round trips) only after the notices committed before each', async () => {
    const checks: Promise<boolean>[] = [];
    for (let i = 0; i < 50; i++) {
      await writer.query(`select pg_notify('catch_up_test', $1)`, [`c${i}`]);
      // Not awaited: later calls arrive while earlier round trips are on the wire and must not ride on them.
      checks.push(listener.catchUp().then((caughtUp) => caughtUp && heard.has(`c${i}`)));
    }
    expect(await Promise.all(checks)).toEqual(Array(50).fill(true));
  });

  it('answers false once stopped', async () => {
    await listener.stop();
    expect(await listener.catchUp()).toBe(false);
  });
});
