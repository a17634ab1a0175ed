import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger, startEmbeddedPostgres, type EmbeddedDatabase } from '@switchboard/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDeclaredHeaders } from '../export/declared-headers.js';
import { freePort } from '../helpers/ports.js';
import { spawnServer, type ServerProcess } from '../helpers/processes.js';
import { processBacklog, untilRetriesRun } from '../helpers/worker-idle.js';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../helpers/receivers.js';
import { startLoad, tally } from './load.js';
import { prepareSpawnedTenant } from './spawned-tenant.js';

/**
 * PostgreSQL stopped under load, with the built server as its own process against a cluster this test owns:
 * every reply meanwhile is a 503 with Retry-After (never a 500), the outage is logged once each way, the same
 * process answers 200 again within 5 s of the database's return, and a webhook whose retry fell due during the
 * outage is delivered once afterwards.
 */
/** Long enough for PostgreSQL to be stopped before the refused webhook's retry can run. */
const RETRY_SECONDS = 5;

describe('database outage under load', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-outage-pg-'));
  const logger = createLogger('silent');
  let port: number;
  let cluster: EmbeddedDatabase | undefined;
  let server: ServerProcess | undefined;
  let keys: string[];
  let platformId: string;
  let ticketId: string;
  const secret = newWebhookSecret();
  let hooks: WebhookReceiver;

  const startCluster = async () => {
    cluster = await startEmbeddedPostgres({ dataDir, port, database: 'switchboard', logger });
    return cluster.url;
  };

  beforeAll(async () => {
    port = await freePort();
    const databaseUrl = await startCluster();
    // The receiver refuses the first attempt; its retry, RETRY_SECONDS later, falls into the outage.
    hooks = await startWebhookReceiver(secret, (n) => (n === 1 ? 500 : 200));
    ({ keys, platformId, ticketId } = await prepareSpawnedTenant(databaseUrl, (file) => {
      file.platforms![0]!.webhooks = [{ url: hooks.url, secret, events: ['ticket.closed'] }];
    }));
    server = spawnServer({
      DATABASE_URL: databaseUrl,
      PORT: '0',
      LOG_LEVEL: 'info',
      DB_ACQUIRE_TIMEOUT_MS: '1000',
      ALLOW_HTTP_WEBHOOKS: 'true',
      DELIVERY_RETRY_SCHEDULE: String(RETRY_SECONDS),
      METRICS_PORT: '0',
    });
  });
  afterAll(async () => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    await hooks?.close();
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers only 503 + Retry-After while PostgreSQL is down, 200 within 5 s of its return, no restart', async () => {
    const [, serverPort] = await server!.waitFor(/Switchboard ready on http:\/\/localhost:(\d+)/);
    const load = startLoad(`http://127.0.0.1:${serverPort}/api/workspace/v1/channels/list`, keys);
    await expect
      .poll(() => load.hits.filter((hit) => hit.status === 200).length, { timeout: 10_000 })
      .toBeGreaterThan(4);
    const closed = await fetch(`http://127.0.0.1:${serverPort}/api/platform/v1/tickets/manage`, {
      method: 'POST',
      headers: { 'X-API-Key': keys[0]!, 'Content-Type': 'application/json' },
      body: JSON.stringify({ platformId, ticketId, status: 'closed' }),
    });
    expect(closed.status).toBe(200);
    await expect.poll(() => hooks.received.length, { timeout: 10_000, interval: 20 }).toBe(1);
    // The refused attempt's retry comes due one retry step after the attempt is recorded, which follows its receipt
    // by moments: the earliest it can run, and (with a margin) when it has surely come due.
    const retryEarliest = hooks.received[0]!.at + RETRY_SECONDS * 1000;
    const retryDue = retryEarliest + 500;

    const stopping = Date.now();
    await cluster!.stop();
    const stopped = Date.now();
    expect(stopped, 'PostgreSQL must be down before the refused webhook’s retry can run').toBeLessThan(retryEarliest);
    // The outage lasts until the server has noticed it on both paths (requests and the job queue), the load has met
    // it many times, and the retry has come due inside it; the last is a time on the clock, so it is waited for.
    await server!.waitFor(/database unavailable/, 15_000);
    await server!.waitFor(/job queue cannot reach the database/, 15_000);
    await expect
      .poll(() => load.hits.filter((hit) => hit.at > stopped).length > 20 && Date.now() > retryDue, {
        timeout: 15_000,
        interval: 50,
      })
      .toBe(true);
    const restarting = Date.now();
    await startCluster();
    const back = Date.now();
    await expect
      .poll(() => load.hits.some((hit) => hit.at > back && hit.status === 200), { timeout: 10_000, interval: 50 })
      .toBe(true);
    // Recovered for good, not for one request: the load keeps getting 200s.
    await expect
      .poll(() => load.hits.filter((hit) => hit.at > back && hit.status === 200).length, { timeout: 10_000 })
      .toBeGreaterThan(20);
    await load.stop();

    const firstOk = load.hits.find((hit) => hit.at > back && hit.status === 200)!.at;
    const during = load.hits.filter((hit) => hit.at > stopped && hit.at < restarting);
    console.info(
      `database outage: ${during.length} replies while down ${JSON.stringify(tally(during))}; stop took ` +
        `${stopped - stopping} ms; ` +
        `first 200 ${firstOk - back} ms after PostgreSQL accepted connections again; all ` +
        `${JSON.stringify(tally(load.hits))}`,
    );
    expect(during.length).toBeGreaterThan(20);
    for (const hit of during) {
      expect(hit.status, hit.body).toBe(503);
      expect(JSON.parse(hit.body)).toEqual({
        success: false,
        error: 'service_unavailable',
        message: expect.stringMatching(/temporarily unavailable/),
      });
      expect(Number(hit.headers['retry-after'])).toBeGreaterThan(0);
      // Refused while looking the key up, before the rate limiter: exactly what the OpenAPI promises for a 503.
      expectDeclaredHeaders('POST', '/api/workspace/v1/channels/list', hit);
    }
    expect(
      load.hits.filter((hit) => hit.status !== 200 && hit.status !== 503),
      'only 200 and 503 at any time',
    ).toEqual([]);
    expect(firstOk - back).toBeLessThanOrEqual(5000);

    // Same process, one warn line each way, no per-request stack traces.
    expect(server!.child.exitCode).toBeNull();
    const output = server!.output();
    expect(output.match(/database unavailable/g)).toHaveLength(1);
    expect(output.match(/database available again/g)).toHaveLength(1);
    expect(output).not.toMatch(/unhandled error|"stack"/);
    // The job worker polled through the outage and picks up again by itself, also logged once each way.
    await server!.waitFor(/job queue reaches the database again/, 15_000);
    expect(server!.output().match(/job queue cannot reach the database/g)).toHaveLength(1);
    expect(server!.output().match(/job queue reaches the database again/g)).toHaveLength(1);

    // The webhook refused before the outage went out once afterwards, with the same webhook-id, signed.
    await expect.poll(() => hooks.received.length, { timeout: 20_000, interval: 50 }).toBe(2);
    const [refused, delivered] = hooks.received;
    expect(delivered!.at).toBeGreaterThan(back);
    expect(delivered!.verified?.data.ticket.id).toBe(ticketId);
    expect(delivered!.headers['webhook-id']).toBe(refused!.headers['webhook-id']);
    // The first attempt's job may have lost its completion to the outage: its re-run must send nothing.
    expect(await untilRetriesRun(processBacklog(server!), cluster!.url)).toEqual({ due: 0, later: 0 });
    expect(hooks.received).toHaveLength(2);
  }, 90_000);
});
