import type { RunningServer } from '@switchboard/server';
import { sql } from './database.js';
import type { ServerProcess } from './processes.js';

export type JobBacklog = Awaited<ReturnType<RunningServer['jobBacklog']>>;

/**
 * Waits for the signal that the job worker is idle: no job due or running (the backlog as PostgreSQL holds it), so
 * every effect of what was queued so far has happened. "Nothing more happens" is then asserted by checking, not by
 * sleeping. Resolves with the backlog, whose `later` counts jobs that will only run at their start time (retries).
 */
export async function untilIdle(backlog: () => Promise<JobBacklog>, timeoutMs = 20_000): Promise<JobBacklog> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await backlog();
    if (now.due === 0) return now;
    if (Date.now() > deadline)
      throw new Error(`the job worker is not idle after ${timeoutMs} ms: ${JSON.stringify(now)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The backlog of a server running as its own process, from its Prometheus listener (`switchboard_job_backlog`):
 * start it with METRICS_PORT (0 picks a free port; the port is read from its `metrics listening` log line).
 */
export function processBacklog(server: ServerProcess): () => Promise<JobBacklog> {
  return async () => {
    const [, port] = await server.waitFor(/"port":(\d+)[^\n]*"msg":"metrics listening on \/metrics"/);
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const count = (when: string) => {
      const line = text
        .split('\n')
        .find((candidate) => candidate.startsWith(`switchboard_job_backlog{when="${when}"} `));
      if (!line) throw new Error(`no switchboard_job_backlog{when="${when}"} in the metrics of the server process`);
      return Number(line.slice(line.lastIndexOf(' ') + 1));
    };
    return { due: count('due'), later: count('later') };
  };
}

/**
 * Idle, with every job and webhook delivery that waits for a retry run now: a job whose worker was killed, or whose
 * completion an outage swallowed, is re-run by pg-boss after its backoff (a delivery when its claim's lease ends).
 * Running it at once, then waiting for idle again, shows
 * that the re-run does nothing (the backlog then has nothing left for later) instead of waiting out the backoff.
 */
export async function untilRetriesRun(
  backlog: () => Promise<JobBacklog>,
  databaseUrl: string,
  timeoutMs?: number,
): Promise<JobBacklog> {
  await untilIdle(backlog, timeoutMs);
  await sql(databaseUrl, `update pgboss.job set start_after = now() where state < 'active' and start_after > now()`);
  // Webhook deliveries wait in their own table (a retry, or the lease of a claim whose instance died).
  await sql(
    databaseUrl,
    `update webhook_deliveries set next_attempt_at = now() where status = 'pending' and next_attempt_at > now()`,
  );
  return untilIdle(backlog, timeoutMs);
}
