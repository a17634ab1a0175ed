import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger, startEmbeddedPostgres, type EmbeddedDatabase } from '@switchboard/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.js';
import { spawnServer, type ServerProcess } from '../helpers/processes.js';
import { expectNeverSentTwice, lastDueAt, stageWhatsAppBroadcast, type BroadcastStage } from './spawned-broadcast.js';

const RECIPIENTS = 60;

/**
 * Issue #32: PostgreSQL stopped while a broadcast sends to a WhatsApp channel (the Graph stand-in), with calls in
 * flight, and started again on the same data directory. The built server runs as its own process against a cluster
 * this test owns and rides the outage out: the answers Meta gave meanwhile are recorded once the database is back,
 * the rest of the audience is sent, and the broadcast completes with every recipient sent, Meta called once for each.
 */
describe('a broadcast survives a PostgreSQL outage', { timeout: 180_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-broadcast-outage-pg-'));
  const logger = createLogger('silent');
  let port: number;
  let cluster: EmbeddedDatabase | undefined;
  let databaseUrl: string;
  let stage: BroadcastStage;
  let server: ServerProcess | undefined;

  const startCluster = async () => {
    cluster = await startEmbeddedPostgres({ dataDir, port, database: 'switchboard', logger });
    return cluster.url;
  };

  beforeAll(async () => {
    port = await freePort();
    databaseUrl = await startCluster();
    stage = await stageWhatsAppBroadcast(databaseUrl, RECIPIENTS);
    server = spawnServer({
      ...stage.env,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      LOG_LEVEL: 'info',
      DB_ACQUIRE_TIMEOUT_MS: '1000',
    });
  });
  afterAll(async () => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    await stage?.graph.close();
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('PostgreSQL stopped mid-send, started again: completes, every recipient sent, one call each', async () => {
    const [, baseUrl] = await server!.waitFor(/Switchboard ready on (http:\/\/localhost:\d+)/);
    const { id, startedAt } = await stage.createBroadcast(baseUrl!, 'Outage');
    await expect
      .poll(async () => (await stage.counts(databaseUrl, id)).sent > 10 && stage.callsAwaitingAnswer() > 0, {
        timeout: 60_000,
        interval: 20,
      })
      .toBe(true);
    await cluster!.stop();
    // The outage met the dispatcher mid-work: answers of calls in flight that it could not record, or the next sends'
    // hand-over (which the lane finishes before it records the answers it holds).
    await server!.waitFor(/(recording sends|handing sends over) failed; retrying/, 15_000);
    // The outage itself lasts until the rest of the audience has fallen due, so the server comes back to a backlog.
    const outageEnds = lastDueAt(startedAt, RECIPIENTS);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, outageEnds - Date.now())));
    await startCluster();

    await expect
      .poll(async () => (await stage.counts(databaseUrl, id)).status, { timeout: 60_000, interval: 100 })
      .toBe('completed');
    // A live dispatcher loses nothing to an outage: the answers it held are recorded, the sends it could not start
    // are made afterwards, and no recipient is left with an unknown outcome.
    expect(await expectNeverSentTwice(stage, databaseUrl, id)).toEqual({ sent: RECIPIENTS });
    expect(server!.child.exitCode).toBeNull();
    expect(server!.output()).not.toMatch(/unhandled error|"stack"/);
  });
});
