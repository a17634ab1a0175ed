import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshDatabase } from '../helpers/database.js';
import { spawnServer, type ServerProcess } from '../helpers/processes.js';
import { expectNeverSentTwice, stageWhatsAppBroadcast, type BroadcastStage } from './spawned-broadcast.js';

const RECIPIENTS = 60;

/**
 * Issue #32: a SIGKILL of the only server while a broadcast sends to a WhatsApp channel, with calls to Meta (the
 * Graph stand-in) in flight. A new process on the same database finishes it: every recipient ends final (sent, or
 * failed `outcome_unknown` for a send the kill cut off), the counts add up, the broadcast completes, and Meta got at
 * most one send per recipient.
 */
describe('a broadcast survives a server crash', { timeout: 180_000 }, () => {
  let databaseUrl: string;
  let stage: BroadcastStage;
  let running: ServerProcess | undefined;

  const start = async () => {
    running = spawnServer({ ...stage.env, DATABASE_URL: databaseUrl, PORT: '0', LOG_LEVEL: 'info' });
    return (await running.waitFor(/Switchboard ready on (http:\/\/localhost:\d+)/))[1]!;
  };

  beforeAll(async () => {
    databaseUrl = await createFreshDatabase();
    stage = await stageWhatsAppBroadcast(databaseUrl, RECIPIENTS);
  });
  afterAll(async () => {
    if (running?.child.exitCode === null) running.child.kill('SIGKILL');
    await stage?.graph.close();
  });

  it('killed with calls in flight, restarted: completes, every recipient final, at most one call each', async () => {
    const { id } = await stage.createBroadcast(await start(), 'Crash');
    await expect
      .poll(async () => (await stage.counts(databaseUrl, id)).sent > 10 && stage.callsAwaitingAnswer() > 0, {
        timeout: 60_000,
        interval: 20,
      })
      .toBe(true);
    running!.child.kill('SIGKILL');
    await running!.exited;
    const atKill = await stage.counts(databaseUrl, id);
    expect(atKill.queued).toBeGreaterThan(0);
    // The kill cut calls off: Meta received sends whose answers the database never got.
    expect(stage.calls().length).toBeGreaterThan(atKill.sent + atKill.failed);

    await start();
    await expect
      .poll(async () => (await stage.counts(databaseUrl, id)).status, { timeout: 90_000, interval: 100 })
      .toBe('completed');
    const outcome = await expectNeverSentTwice(stage, databaseUrl, id);
    // The cut-off sends cannot be known to have reached Meta or not: recorded so, never retried.
    expect(outcome['failed outcome_unknown']).toBeGreaterThan(0);
    running!.child.kill('SIGTERM');
    expect(await running!.exited).toBe(0);
  });
});
