import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFreshDatabase } from '../helpers/database.js';
import { spawnServer } from '../helpers/processes.js';

const exec = promisify(execFile);

describe('the server process', () => {
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await createFreshDatabase();
  });

  it(
    'asked to (DEMO=true), seeds the demo into an empty database once, prints a working curl, and stops cleanly on ' +
      'SIGTERM',
    async () => {
      const first = spawnServer({ DATABASE_URL: databaseUrl, PORT: '0', DEMO: 'true', MIGRATE_ON_START: 'true' });
      const [, apiKey] = await first.waitFor(/This API key is shown once; keep it:\s+(sb_live_\S+)/);
      const [curlLine] = await first.waitFor(/curl -s -X POST \S+\/api\/workspace\/v1\/contacts\/list .*/);
      const [replyLine] = await first.waitFor(/curl -s -X POST \S+\/api\/workspace\/v1\/chat\/message\/send .*/);
      const [inboxLine] = await first.waitFor(/curl -s -X POST \S+\/chat\/conversations\/list .*/);

      // Run the printed commands as a person would paste them (curl ships with the CI image; fall back to fetch).
      const hasCurl = await exec('curl', ['--version']).then(
        () => true,
        () => false,
      );
      const run = async (line: string) =>
        hasCurl
          ? JSON.parse((await exec('sh', ['-c', line])).stdout)
          : await fetch(line.match(/(http:\S+)/)![1]!, {
              method: 'POST',
              headers: { 'X-API-Key': apiKey!, 'Content-Type': 'application/json' },
              body: line.match(/-d '(.*)'/)![1],
            }).then((r) => r.json());
      const body = await run(curlLine);
      expect(body.success).toBe(true);
      expect(body.data.map((c: { name: string }) => c.name)).toEqual(['Ada Lovelace']);
      // Ada's question is minutes old: the reply goes out, and her conversation is in the unread inbox.
      expect(await run(replyLine)).toMatchObject({ success: true, data: { status: 'accepted', to: '15550000001' } });
      const [ada, ...others] = (await run(inboxLine)).data;
      expect(others).toEqual([]);
      expect(ada).toMatchObject({ name: 'Ada Lovelace', windowExpiresAt: expect.any(String) });
      expect(ada.unreadCount).toBeGreaterThan(0);

      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      expect(first.output()).toMatch(/"msg":"stopped"/);

      const second = spawnServer({ DATABASE_URL: databaseUrl, PORT: '0', DEMO: 'true' });
      const [, port] = await second.waitFor(/Switchboard ready on http:\/\/localhost:(\d+)/);
      const reply = await fetch(`http://127.0.0.1:${port}/api/workspace/v1/channels/list`, {
        method: 'POST',
        headers: { 'X-API-Key': apiKey! },
      });
      expect(reply.status).toBe(200);
      expect(((await reply.json()) as { total: number }).total).toBe(2);
      expect(second.output()).not.toMatch(/shown once/);
      second.child.kill('SIGINT');
      expect(await second.exited).toBe(0);
    },
  );

  it('refuses a bad configuration with one line naming the variable', async () => {
    const bad = spawnServer({ DATABASE_URL: databaseUrl, PORT: 'eighty' });
    expect(await bad.exited).toBe(1);
    expect(bad.output().trim()).toBe('Invalid configuration: PORT must be a number');
  });

  it('exits with a clear message when the port is taken', async () => {
    const holder = spawnServer({ DATABASE_URL: databaseUrl, PORT: '0' });
    const [, port] = await holder.waitFor(/Switchboard ready on http:\/\/localhost:(\d+)/);
    const clash = spawnServer({ DATABASE_URL: databaseUrl, PORT: port! });
    expect(await clash.exited).toBe(1);
    expect(clash.output()).toMatch(new RegExp(`Port ${port} is already in use`));
    holder.child.kill('SIGTERM');
    await holder.exited;
  });
});
