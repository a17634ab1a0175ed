import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshDatabase, sql } from '../helpers/database.js';
import { spawnServer, type ServerProcess } from '../helpers/processes.js';
import { COUNTS } from '../bench/broadcast-bench.js';
import { prepareSpawnedTenant } from '../hostile/spawned-tenant.js';

const RECIPIENTS = 60;
const phoneOf = (i: number) => `1555300${String(i).padStart(4, '0')}`;

/**
 * Issue #32: a SIGKILL of the only server while a broadcast sends. A new process on the same database finishes it:
 * every recipient ends final (sent or later, or failed `outcome_unknown` for a send the kill cut off), each has one
 * message and none more than one provider answer, the counts add up, and the broadcast completes.
 */
describe('a broadcast survives a server crash', { timeout: 180_000 }, () => {
  let databaseUrl: string;
  let env: Record<string, string>;
  let key: string;
  let running: ServerProcess | undefined;
  let baseUrl: string;

  const start = async () => {
    running = spawnServer(env);
    baseUrl = (await running.waitFor(/Switchboard ready on (http:\/\/localhost:\d+)/))[1]!;
  };
  const post = async (path: string, body: object) => {
    const reply = await fetch(`${baseUrl}/api/workspace/v1/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify(body),
    });
    expect(reply.status).toBe(200);
    return ((await reply.json()) as { data: { id: string } }).data;
  };
  const counts = async (id: string) => (await sql(databaseUrl, COUNTS, [id]))[0]!;

  beforeAll(async () => {
    databaseUrl = await createFreshDatabase();
    // Sandbox reports late, so recipients stay `sent` and the counts are read while nothing else moves them.
    env = { DATABASE_URL: databaseUrl, PORT: '0', LOG_LEVEL: 'info', SANDBOX_SENT_AFTER_MS: '600000' };
    const tenant = await prepareSpawnedTenant(databaseUrl, (file) => {
      file.labels!.push({ channel: 'main', name: 'crowd' });
      for (let i = 0; i < RECIPIENTS; i++)
        file.contacts!.push({ channel: 'main', name: `Crowd ${i}`, phone: phoneOf(i), labels: ['crowd'] });
    });
    key = tenant.keys[1]!;
  });
  afterAll(async () => {
    if (running?.child.exitCode === null) running.child.kill('SIGKILL');
  });

  it('killed mid-send, restarted: completes with every recipient final and sent at most once', async () => {
    await start();
    const labels = (await post('labels/list', {})) as unknown as { id: string; name: string }[];
    const crowd = labels.find((label) => label.name === 'crowd')!.id;
    const broadcast = await post('broadcasts/manage', {
      action: 'create',
      name: 'Crash',
      templateName: 'order_update',
      variables: ['{{contact.name}}', 'A-1'],
      audience: { labelIds: [crowd] },
      ratePerSecond: 20,
    });
    await expect
      .poll(async () => (await counts(broadcast.id)).sent, { timeout: 60_000, interval: 50 })
      .toBeGreaterThan(10);
    running!.child.kill('SIGKILL');
    await running!.exited;
    const atKill = await counts(broadcast.id);
    expect(atKill.queued).toBeGreaterThan(0);

    await start();
    await expect
      .poll(async () => (await counts(broadcast.id)).status, { timeout: 90_000, interval: 100 })
      .toBe('completed');
    const final = await counts(broadcast.id);
    expect(final.recipients).toBe(RECIPIENTS);
    expect(final.queued).toBe(0);
    expect(final.sent + final.delivered + final.read + final.failed + final.skipped).toBe(RECIPIENTS);
    const recipients = await sql(
      databaseUrl,
      'select status, reason from broadcast_recipients where broadcast_id = $1',
      [broadcast.id],
    );
    expect(recipients.filter((r) => r.status === 'failed').every((r) => r.reason === 'outcome_unknown')).toBe(true);
    const messages = await sql(
      databaseUrl,
      `select "to", count(*)::int as n, count(provider_message_id)::int as answered
         from messages where broadcast_id = $1 group by "to"`,
      [broadcast.id],
    );
    expect(messages).toHaveLength(RECIPIENTS);
    expect(messages.every((m) => m.n === 1 && m.answered <= 1)).toBe(true);
    running!.child.kill('SIGTERM');
    await running!.exited;
  });
});
