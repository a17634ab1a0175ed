import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshDatabase, sql } from '../helpers/database.js';
import { runCli, spawnServer, type ServerProcess } from '../helpers/processes.js';
import { processBacklog, untilRetriesRun } from '../helpers/worker-idle.js';
import { prepareSpawnedTenant } from '../hostile/spawned-tenant.js';

/**
 * Issue #25: a SIGKILL between the commit of a customer's message and its automation's run loses nothing and
 * doubles nothing. The built server runs as a child process and is killed; a new process on the same database
 * runs the automation exactly once: one run, one reply, one count.
 */
describe('automations survive a server crash', { timeout: 180_000 }, () => {
  let databaseUrl: string;
  let env: Record<string, string>;
  let channelId: string;
  let running: ServerProcess | undefined;

  const start = async (extra: Record<string, string> = {}) => {
    running = spawnServer({ ...env, ...extra });
    await running.waitFor(/Switchboard ready on http:\/\/localhost:(\d+)/);
  };
  const kill = async () => {
    running!.child.kill('SIGKILL');
    await running!.exited;
  };
  const receive = async (from: string) => {
    const result = await runCli(
      ['sandbox', 'receive', '--channel', channelId, '--from', from, '--text', 'hours?'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { msgid: string }).msgid;
  };
  const runsFor = (msgid: string) =>
    sql(databaseUrl, 'select outcome, steps from automation_runs where event_id = $1', [msgid]);
  const repliesTo = (phone: string) =>
    sql(databaseUrl, `select automation_id from messages where "to" = $1 and direction = 'outbound'`, [phone]);
  const executionCount = async () =>
    (
      await sql<{ execution_count: number }>(
        databaseUrl,
        `select execution_count from automations where name = 'Hours'`,
      )
    )[0]!.execution_count;

  beforeAll(async () => {
    databaseUrl = await createFreshDatabase();
    env = { DATABASE_URL: databaseUrl, PORT: '0', LOG_LEVEL: 'info', METRICS_PORT: '0' };
    await prepareSpawnedTenant(databaseUrl, (file) => {
      file.automations!.push({
        channel: 'main',
        name: 'Hours',
        trigger: { event: 'message.received' },
        conditions: [{ field: 'text', operator: 'contains', value: 'hours' }],
        actions: [{ type: 'send_text', text: 'Hi {{contact.phone}}, we open at 9.' }],
      });
    });
    [{ id: channelId }] = (await sql<{ id: string }>(
      databaseUrl,
      `select id from channels where name = 'Acme Main'`,
    )) as [{ id: string }];
    // A first start creates the job queues the CLI queues into.
    await start();
    await kill();
  });
  afterAll(async () => {
    if (running?.child.exitCode === null) running.child.kill('SIGKILL');
  });

  it('a message committed while no worker runs, then a kill: the restarted server runs it once', async () => {
    await start({ JOB_WORKER: 'false' });
    const msgid = await receive('15550007001');
    await kill();
    expect(await runsFor(msgid)).toEqual([]);

    await start();
    await expect.poll(() => runsFor(msgid), { timeout: 60_000, interval: 100 }).toHaveLength(1);
    expect(await untilRetriesRun(processBacklog(running!), databaseUrl, 60_000)).toEqual({ due: 0, later: 0 });
    expect((await runsFor(msgid)).map((run) => run.outcome)).toEqual(['succeeded']);
    expect(await repliesTo('15550007001')).toHaveLength(1);
    expect(await executionCount()).toBe(1);
  });

  it('killed at once after the message with the worker running (before, during or after the run): once', async () => {
    const msgid = await receive('15550007002');
    await kill();
    await start();
    await expect.poll(() => runsFor(msgid), { timeout: 60_000, interval: 100 }).toHaveLength(1);
    expect(await untilRetriesRun(processBacklog(running!), databaseUrl, 60_000)).toEqual({ due: 0, later: 0 });
    expect(await repliesTo('15550007002')).toHaveLength(1);
    expect(await executionCount()).toBe(2);
    await kill();
  });
});
