import { createLogger, loadConfig, openDatabase, receiveSandboxMessage, startServer } from '@switchboard/server';
import pg from 'pg';

export interface AutomationLatency {
  samples: number;
  p50: number;
  p95: number;
  max: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * Inbound message → the automation's reply handed to the provider, on the product server (`baseUrl`, its own
 * process and worker): a message-received automation answering "hours" with a session message, then `samples`
 * customers' messages one at a time. Each is committed here, through a worker-less instance's job queue (as
 * `pnpm cli sandbox receive` does); its latency runs from that commit to the reply's record, which the product
 * writes right after the sandbox provider accepted it (both clocks are this machine's).
 */
export async function automationLatency(
  databaseUrl: string,
  baseUrl: string,
  apiKey: string,
  channelId: string,
  samples = 50,
): Promise<AutomationLatency> {
  const created = await fetch(`${baseUrl}/api/workspace/v1/automations/manage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({
      channelId,
      action: 'create',
      name: `Bench hours ${Date.now()}`,
      trigger: { event: 'message.received' },
      conditions: [{ field: 'text', operator: 'contains', value: 'hours' }],
      actions: [{ type: 'send_text', text: 'Hi {{contact.name}}, we open at 9.' }],
    }),
  });
  if (!created.ok) throw new Error(`creating the bench automation: ${created.status} ${await created.text()}`);
  const automationId = ((await created.json()) as { data: { id: string } }).data.id;
  const config = loadConfig({ DATABASE_URL: databaseUrl, PORT: '0', LOG_LEVEL: 'warn', JOB_WORKER: 'false' });
  const logger = createLogger('warn', 2);
  const database = await openDatabase(config, logger, 2);
  const queueing = await startServer(config, database, logger);
  const latencies: number[] = [];
  const poll = new pg.Client({ connectionString: databaseUrl });
  await poll.connect();
  try {
    for (let i = 0; i < samples; i++) {
      const from = `1999${String(Date.now()).slice(-6)}${String(i).padStart(2, '0')}`;
      await receiveSandboxMessage({ em: database.orm.em.fork() }, queueing.jobs, {
        channelId,
        from,
        text: 'What are your opening hours?',
      });
      const committed = Date.now();
      for (;;) {
        const { rows } = await poll.query<{ created_at: Date }>(
          `select created_at from messages where automation_id = $1 and "to" = $2`,
          [automationId, from],
        );
        const [reply] = rows;
        if (reply) {
          latencies.push(reply.created_at.getTime() - committed);
          break;
        }
        if (Date.now() - committed > 30_000) throw new Error(`no automation reply to ${from} after 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  } finally {
    await poll.end();
    await queueing.close();
    await database.close();
  }
  const sorted = latencies.sort((a, b) => a - b);
  return { samples, p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted.at(-1)! };
}
