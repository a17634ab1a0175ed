import { existsSync } from 'node:fs';
import path from 'node:path';
import { createLogger, loadConfig, migrate, openDatabase, seed } from '@switchboard/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshDatabase, sql } from '../helpers/database.js';
import { tenantSeed } from '../helpers/fixtures.js';
import { REPO_ROOT, spawnServer, type ServerProcess } from '../helpers/processes.js';
import {
  newWebhookSecret,
  startMailCatcher,
  startWebhookReceiver,
  type MailCatcher,
  type WebhookReceiver,
} from '../helpers/receivers.js';
import { freePort } from '../helpers/ports.js';
import { processBacklog, untilIdle } from '../helpers/worker-idle.js';
import { sealingServices, TEST_SECRETS_KEY } from '../helpers/secrets-key.js';

/**
 * Durability across a crash, with the built server (`node apps/server/dist/main.js`, built by `pnpm test` or
 * `pnpm --filter @switchboard/server build`) killed with SIGKILL: no graceful shutdown, no chance to finish.
 */
describe('ticket.closed survives a server crash', () => {
  const secret = newWebhookSecret();
  let databaseUrl: string;
  let env: Record<string, string>;
  let hookPort: number;
  let smtpPort: number;
  let ownerKey: string;
  let platformId: string;
  const tickets: { id: string; shortId: string }[] = [];
  let smtp: MailCatcher | undefined;
  let hooks: WebhookReceiver | undefined;
  let hangNext = false;
  let running: ServerProcess | undefined;

  const start = async () => {
    running = spawnServer(env);
    const [, port] = await running.waitFor(/Switchboard ready on http:\/\/localhost:(\d+)/);
    return `http://127.0.0.1:${port}`;
  };
  const close = (baseUrl: string, ticketId: string) =>
    fetch(`${baseUrl}/api/platform/v1/tickets/manage`, {
      method: 'POST',
      headers: { 'X-API-Key': ownerKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ platformId, ticketId, status: 'closed' }),
    });
  const kill = async () => {
    running!.child.kill('SIGKILL');
    await running!.exited;
  };
  const hooksFor = (ticketId: string) => hooks!.received.filter((hit) => hit.verified?.data.ticket.id === ticketId);
  const mailsFor = (shortId: string) => smtp!.mails.filter((mail) => mail.subject.includes(shortId));
  const deliveryOf = async (ticketId: string) =>
    (
      await sql(databaseUrl, `select * from webhook_deliveries where payload->'data'->'ticket'->>'id' = $1`, [ticketId])
    )[0];

  beforeAll(async () => {
    if (!existsSync(path.join(REPO_ROOT, 'apps/server/dist/main.js')))
      throw new Error('Build the server first: pnpm --filter @switchboard/server build');
    [hookPort, smtpPort] = [await freePort(), await freePort()];
    databaseUrl = await createFreshDatabase();
    env = {
      DATABASE_URL: databaseUrl,
      PORT: '0',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      DELIVERY_RETRY_SCHEDULE: '1',
      LOG_LEVEL: 'info',
      ALLOW_HTTP_WEBHOOKS: 'true',
      METRICS_PORT: '0',
    };

    // Our tenant (two extra tickets, a webhook endpoint on a port nobody listens on yet) goes in before the first
    // start.
    const file = tenantSeed('Acme');
    file.platforms![0]!.webhooks = [{ url: `http://127.0.0.1:${hookPort}/hooks`, secret, events: ['ticket.closed'] }];
    file.tickets!.push({
      ref: 't2',
      platform: 'p',
      email: 'pat@customer.example',
      title: 'Second',
      description: 'Second ticket',
    });
    const database = await openDatabase(
      loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', SECRETS_KEY: TEST_SECRETS_KEY }),
      createLogger('silent'),
      2,
    );
    try {
      await migrate(database.orm);
      const ids = await seed(database.orm.em.fork(), file, sealingServices(database.secrets));
      [ownerKey, platformId] = [ids.users!.owner!.apiKey!, ids.platforms!.p!];
      tickets.push(ids.tickets!.t1!, ids.tickets!.t2!);
    } finally {
      await database.close();
    }
  });
  afterAll(async () => {
    if (running?.child.exitCode === null) running.child.kill('SIGKILL');
    await hooks?.close();
    await smtp?.close();
  });

  it('a close that committed just before SIGKILL is delivered after the restart, exactly once', async () => {
    const [ticket] = tickets;
    const first = await start();
    const reply = await close(first, ticket!.id);
    await kill();
    expect(reply.status).toBe(200);

    // Only now do the mail server and the receiver exist: every delivery that counts happens after the restart.
    smtp = await startMailCatcher(smtpPort);
    hooks = await startWebhookReceiver(secret, () => (hangNext ? ((hangNext = false), 'hang') : 200), hookPort);
    await start();
    await expect.poll(() => hooksFor(ticket!.id).length, { timeout: 20_000, interval: 100 }).toBe(1);
    await expect.poll(() => mailsFor(ticket!.shortId).length, { timeout: 20_000, interval: 100 }).toBe(1);
    // Nothing more once the restarted worker is idle: a second delivery would be a job due by now.
    expect(await untilIdle(processBacklog(running!))).toEqual({ due: 0, later: 0 });
    expect(hooksFor(ticket!.id)).toHaveLength(1);
    expect(mailsFor(ticket!.shortId)).toHaveLength(1);
    expect(await deliveryOf(ticket!.id)).toMatchObject({ status: 'delivered', last_status_code: 200 });
  }, 60_000);

  it('a delivery interrupted by SIGKILL mid-request is retried within 60 s of restart and delivered once', async () => {
    const [, ticket] = tickets;
    const port = (await running!.waitFor(/Switchboard ready on http:\/\/localhost:(\d+)/))[1];
    hangNext = true;
    expect((await close(`http://127.0.0.1:${port}`, ticket!.id)).status).toBe(200);
    // The receiver holds the request open; the email has gone out and been recorded. Now the server dies.
    await expect.poll(() => hooksFor(ticket!.id).length, { timeout: 5000, interval: 20 }).toBe(1);
    await expect
      .poll(
        async () =>
          (
            await sql(databaseUrl, `select status from outbound_emails where subject like $1`, [`%${ticket!.shortId}%`])
          )[0]?.status,
        { timeout: 5000 },
      )
      .toBe('sent');
    await kill();
    hooks!.release(200);

    const restarted = Date.now();
    await start();
    await expect.poll(() => hooksFor(ticket!.id).length, { timeout: 60_000, interval: 200 }).toBe(2);
    const pickedUpAfter = hooksFor(ticket!.id)[1]!.at - restarted;
    console.info(`interrupted webhook re-sent ${pickedUpAfter} ms after the restart began`);
    expect(pickedUpAfter).toBeLessThan(60_000);

    const [interrupted, retried] = hooksFor(ticket!.id);
    expect(retried!.headers['webhook-id']).toBe(interrupted!.headers['webhook-id']);
    await expect.poll(async () => (await deliveryOf(ticket!.id))?.status, { timeout: 5000 }).toBe('delivered');
    const delivery = (await deliveryOf(ticket!.id))!;
    // The interrupted attempt never got recorded; the one that succeeded is the delivery's first recorded attempt.
    expect(delivery).toMatchObject({ attempts: 1, last_status_code: 200 });
    expect(mailsFor(ticket!.shortId)).toHaveLength(1);

    running!.child.kill('SIGTERM');
    expect(await running!.exited).toBe(0);
  }, 90_000);
});
