import { EVENT_STREAM_PING_SECONDS } from '@switchboard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshDatabase, sql } from '../helpers/database.js';
import { openRawStream } from '../helpers/event-stream.js';
import { spawnServer, type ServerProcess } from '../helpers/processes.js';
import { prepareSpawnedTenant } from '../hostile/spawned-tenant.js';

/**
 * Issue #38 item 3, on the built server as its own process (as a container runs it): one stream's failure ends that
 * stream, never the process, and a failure nothing handled is logged (an unhandled rejection: the server goes on;
 * an uncaught exception: the orderly stop, exit 1). Before the fix a stream whose user lost the channel it asked
 * for threw inside its ping, and the unhandled rejection ended the process, every tenant with it.
 *
 * The faults come from outside the server's code: a module preloaded with `--import` turns SIGUSR2 into one, the
 * first an unhandled rejection, the next an exception thrown from a timer.
 */
const FAULTS = `let faults = 0;
process.on('SIGUSR2', () => {
  faults += 1;
  if (faults === 1) Promise.reject(new Error('injected rejection'));
  else setTimeout(() => { throw new Error('injected exception'); });
});`;

const lines = (server: ServerProcess, message: string) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.includes(`"msg":"${message}"`));

describe('failures nothing handled, in the built server', { timeout: 180_000 }, () => {
  let server: ServerProcess;
  let baseUrl: string;
  let databaseUrl: string;
  let keys: string[];

  beforeAll(async () => {
    databaseUrl = await createFreshDatabase();
    ({ keys } = await prepareSpawnedTenant(databaseUrl));
    server = spawnServer({
      DATABASE_URL: databaseUrl,
      PORT: '0',
      NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(FAULTS)}`,
    });
    const [, port] = await server.waitFor(/Switchboard ready on http:\/\/localhost:(\d+)/, 120_000);
    baseUrl = `http://127.0.0.1:${port}`;
  }, 180_000);
  afterAll(async () => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  });

  const answers = async () => (await fetch(`${baseUrl}/healthz`)).status;

  it('a stream whose user lost the channel it named ends at a ping, logged once; the server goes on', async () => {
    const [ownerKey, memberKey] = keys as [string, string];
    const channels = await fetch(`${baseUrl}/api/workspace/v1/channels/list`, {
      method: 'POST',
      headers: { 'x-api-key': memberKey },
    });
    const [main] = ((await channels.json()) as { data: { id: string }[] }).data;
    const stream = await openRawStream(baseUrl, memberKey, { query: { channelId: main!.id } });
    expect(stream.status).toBe(200);
    await sql(
      databaseUrl,
      `delete from channel_users cu using users u
        where cu.user_id = u.id and u.email like 'member@%' and cu.channel_id = $1`,
      [main!.id],
    );
    await stream.ended;
    expect(stream.pings).toBeGreaterThanOrEqual(1);
    await server.waitFor(/"msg":"event stream ended: its access ended"/, EVENT_STREAM_PING_SECONDS * 1000);
    expect(lines(server, 'event stream ended: its access ended')).toHaveLength(1);
    expect(lines(server, 'event stream ended: its access ended')[0]).toContain(
      '"reason":"You are not authorized for this channel."',
    );
    expect(server.child.exitCode).toBeNull();
    expect(await answers()).toBe(200);
    const again = await openRawStream(baseUrl, memberKey, { query: { channelId: main!.id } });
    expect(again.status).toBe(403);
    const other = await openRawStream(baseUrl, ownerKey, { query: { channelId: main!.id } });
    expect(other.status).toBe(200);
    other.close();
  });

  it('an unhandled rejection is logged, serving goes on; an uncaught exception stops in order, exit 1', async () => {
    server.child.kill('SIGUSR2');
    await server.waitFor(/"msg":"unhandled promise rejection: logged, the server goes on"/);
    expect(lines(server, 'unhandled promise rejection: logged, the server goes on')[0]).toContain('injected rejection');
    expect(await answers()).toBe(200);
    expect(server.child.exitCode).toBeNull();

    server.child.kill('SIGUSR2');
    expect(await server.exited).toBe(1);
    expect(lines(server, 'uncaught exception: stopping')[0]).toContain('injected exception');
    expect(lines(server, 'stopped')).toHaveLength(1);
  });
});
