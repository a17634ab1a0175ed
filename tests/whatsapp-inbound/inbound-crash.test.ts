import { createLogger, loadConfig, openDatabase } from '@switchboard/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshDatabase, sql } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';
import { spawnServer, type ServerProcess } from '../helpers/processes.js';
import { processBacklog, untilIdle } from '../helpers/worker-idle.js';
import { prepareSpawnedTenant } from '../hostile/spawned-tenant.js';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../helpers/receivers.js';
import {
  connectChannel,
  eventsOf,
  insertOutbound,
  messagesChange,
  notification,
  postSigned,
  SECRETS_KEY,
  type ConnectedChannel,
} from './inbound-fixture.js';

/**
 * Issues #11 and #16: a SIGKILL right after Meta got its 200 loses nothing. The built server runs as a child process
 * (`node apps/server/dist/main.js`) and is killed with no chance to finish anything; a new process on the same
 * database must apply the status exactly once and deliver its `message.status.updated` exactly once.
 */
describe('inbound WhatsApp webhook survives a server crash', () => {
  const secret = newWebhookSecret();
  let databaseUrl: string;
  let env: Record<string, string>;
  let whatsapp: ConnectedChannel;
  let hooks: WebhookReceiver | undefined;
  let running: ServerProcess | undefined;

  const start = async (extra: Record<string, string> = {}) => {
    running = spawnServer({ ...env, ...extra });
    const [, port] = await running.waitFor(/Switchboard ready on http:\/\/localhost:(\d+)/);
    return `http://127.0.0.1:${port}`;
  };
  const kill = async () => {
    running!.child.kill('SIGKILL');
    await running!.exited;
  };
  const postStatus = (baseUrl: string, msgid: string, status: string) =>
    postSigned(
      baseUrl,
      whatsapp,
      notification({
        wabaId: whatsapp.wabaId,
        changes: [messagesChange(whatsapp.phoneNumberId, { statuses: [{ id: msgid, status }] })],
      }),
    );
  const statusOf = async (msgid: string) =>
    (await sql(databaseUrl, 'select status from messages where msgid = $1', [msgid]))[0]?.status;
  const eventsFor = (msgid: string) =>
    eventsOf<{ msgid: string; status: string }>(
      hooks!.received,
      'message.status.updated',
      (data) => data.msgid === msgid,
    );
  const eventRows = (msgid: string) =>
    sql(databaseUrl, `select status from webhook_deliveries where payload->'data'->>'msgid' = $1`, [msgid]);

  beforeAll(async () => {
    const hookPort = await freePort();
    databaseUrl = await createFreshDatabase();
    env = {
      DATABASE_URL: databaseUrl,
      PORT: '0',
      SECRETS_KEY,
      DELIVERY_RETRY_SCHEDULE: '1',
      LOG_LEVEL: 'info',
      ALLOW_HTTP_WEBHOOKS: 'true',
      METRICS_PORT: '0',
    };
    const tenant = await prepareSpawnedTenant(
      databaseUrl,
      (file) => {
        file.platforms![0]!.webhooks = [
          { url: `http://127.0.0.1:${hookPort}/hooks`, secret, events: ['message.status.updated'] },
        ];
      },
      SECRETS_KEY,
    );
    const database = await openDatabase(
      loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }),
      createLogger('silent'),
      2,
    );
    try {
      const [main] = await sql(
        databaseUrl,
        `select c.id from channels c where c.platform_id = $1 and c.name like '% Main'`,
        [tenant.platformId],
      );
      whatsapp = await connectChannel({ em: database.orm.em.fork() }, main!.id);
    } finally {
      await database.close();
    }
    hooks = await startWebhookReceiver(secret, () => 200, hookPort);
  });
  afterAll(async () => {
    if (running?.child.exitCode === null) running.child.kill('SIGKILL');
    await hooks?.close();
  });

  it('a status answered 200 by a process killed before its job ran is applied after the restart, once', async () => {
    const msgid = await insertOutbound(databaseUrl, whatsapp.channelId);
    // This process runs no job worker: the job cannot run before the kill, so the crash window is hit every time.
    const first = await start({ JOB_WORKER: 'false' });
    const reply = await postStatus(first, msgid, 'delivered');
    expect(reply.status).toBe(200);
    await kill();

    // What the 200 promised is on disk, and nothing was applied yet.
    expect(
      await sql(databaseUrl, 'select status, attempts from whatsapp_inbound_deliveries where channel_id = $1', [
        whatsapp.channelId,
      ]),
    ).toEqual([{ status: 'pending', attempts: 0 }]);
    expect(await statusOf(msgid)).toBe('accepted');
    expect(await eventRows(msgid)).toEqual([]);

    const second = await start();
    await expect.poll(() => statusOf(msgid), { timeout: 30_000, interval: 100 }).toBe('delivered');
    await expect.poll(() => eventsFor(msgid).length, { timeout: 30_000, interval: 100 }).toBe(1);
    // Meta redelivers the same payload to the new process: stored already, nothing changes.
    expect(await (await postStatus(second, msgid, 'delivered')).json()).toMatchObject({ data: { duplicate: true } });
    // A redelivery queued again would be a job due at once: once the worker is idle, it would have run.
    expect(await untilIdle(processBacklog(running!))).toEqual({ due: 0, later: 0 });
    expect(eventsFor(msgid)).toHaveLength(1);
    expect(await eventRows(msgid)).toEqual([{ status: 'delivered' }]);
    expect(
      await sql(databaseUrl, 'select status, attempts from whatsapp_inbound_deliveries where channel_id = $1', [
        whatsapp.channelId,
      ]),
    ).toEqual([{ status: 'applied', attempts: 1 }]);
  }, 90_000);

  it('killed at once after the 200 with the worker running (before/during/after the job): exactly once', async () => {
    const msgid = await insertOutbound(databaseUrl, whatsapp.channelId);
    const baseUrl = `http://127.0.0.1:${(await running!.waitFor(/Switchboard ready on http:\/\/localhost:(\d+)/))[1]}`;
    expect((await postStatus(baseUrl, msgid, 'read')).status).toBe(200);
    await kill();

    await start();
    await expect.poll(() => statusOf(msgid), { timeout: 60_000, interval: 200 }).toBe('read');
    await expect.poll(() => eventsFor(msgid).length, { timeout: 60_000, interval: 200 }).toBe(1);
    // Whether the killed process ran the job or not, the restarted one is idle once everything queued has run.
    expect(await untilIdle(processBacklog(running!), 60_000)).toEqual({ due: 0, later: 0 });
    expect(eventsFor(msgid).map((event) => event.data.status)).toEqual(['read']);
    expect(await eventRows(msgid)).toEqual([{ status: 'delivered' }]);

    running!.child.kill('SIGTERM');
    expect(await running!.exited).toBe(0);
  }, 120_000);
});
