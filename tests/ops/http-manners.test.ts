import pg from 'pg';
import { describe, expect } from 'vitest';
import { createFreshDatabase } from '../helpers/database.js';
import { prepareSpawnedTenant } from '../hostile/spawned-tenant.js';
import { spawnServer } from '../helpers/processes.js';
import { test } from '../helpers/test.js';
import { valueOf } from '../helpers/metrics.js';

const ORIGIN = 'https://app.example.com';
const CHANNELS = '/api/workspace/v1/channels/list';

test.override('serverEnv', { METRICS_PORT: '0', CORS_ORIGINS: `${ORIGIN},http://localhost:5173` });

describe('/ for people who open the address', () => {
  test('answers JSON by default with links to the portal and the definitions', async ({ server }) => {
    const reply = await server.http.get('/');
    expect(reply.status).toBe(200);
    expect(reply.data).toMatchObject({
      success: true,
      data: { links: { developerPortal: '/developer', openApiJson: '/developer/downloads/openapi.json' } },
    });
  });

  test('answers a browser with a small HTML page', async ({ server }) => {
    const reply = await server.http.get('/', { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    expect(reply.data).toContain('<a href="/developer">');
    expect(reply.data).toContain('/developer/downloads/openapi.yaml');
  });
});

describe('CORS', () => {
  test('answers a preflight from a listed origin and labels its replies', async ({ server, acme }) => {
    const preflight = await server.http.options(CHANNELS, {
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'x-api-key,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET,POST');
    expect(preflight.headers['access-control-allow-headers']).toMatch(/X-API-Key/);

    const reply = await server.http.post(CHANNELS, {}, { headers: { Origin: ORIGIN, 'X-API-Key': acme.ownerKey } });
    expect(reply.status).toBe(200);
    expect(reply.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(reply.headers['access-control-expose-headers']).toMatch(/X-Request-Id/);
  });

  test('gives other origins no CORS header', async ({ server, acme }) => {
    const reply = await server.http.post(
      CHANNELS,
      {},
      { headers: { Origin: 'https://evil.example.com', 'X-API-Key': acme.ownerKey } },
    );
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('metrics', () => {
  test(
    '/metrics on METRICS_PORT exposes requests, latency, rate-limit refusals, queue depth, delivery failures, ' +
      'the pool and the named workers',
    async ({ server, acme }) => {
      const scrape = async () => {
        const reply = await fetch(server.metricsUrl!);
        expect(reply.status).toBe(200);
        return reply.text();
      };
      const ok = `switchboard_http_requests_total{method="POST",route="${CHANNELS}",status="200"}`;
      const refused = `switchboard_http_requests_total{method="POST",route="${CHANNELS}",status="429"}`;
      const unmatched = 'switchboard_http_requests_total{method="GET",route="unmatched",status="404"}';
      const slowest =
        'switchboard_http_request_duration_seconds_bucket' +
        `{le="+Inf",method="POST",route="${CHANNELS}",status="200"}`;
      const refusals = 'switchboard_rate_limit_refusals_total{rate_class="api_read"}';
      const before = await scrape();

      const replies = await Promise.all(
        Array.from({ length: 121 }, () => server.http.post(CHANNELS, {}, { headers: { 'X-API-Key': acme.memberKey } })),
      );
      expect(replies.filter((r) => r.status === 429)).toHaveLength(1);
      await server.http.get('/no/such/path');

      const after = await scrape();
      const delta = (series: string) => valueOf(after, series) - valueOf(before, series);
      expect([delta(ok), delta(refused), delta(unmatched), delta(slowest), delta(refusals)]).toEqual([
        120, 1, 1, 120, 1,
      ]);
      const series = (pattern: string) => expect(after).toMatch(new RegExp(`^${pattern}`, 'm'));
      series('switchboard_job_queue_jobs\\{queue="automation.trigger",state="ready"\\} \\d+$');
      series('switchboard_delivery_backlog\\{queue="webhook.deliver",when="due"\\} \\d+$');
      series('switchboard_delivery_backlog\\{queue="email.send",when="later"\\} \\d+$');
      series('switchboard_delivery_lag_seconds\\{queue="webhook.deliver"\\} [\\d.e+-]+$');
      series('switchboard_job_queue_jobs\\{queue="email.send",state="failed"\\} \\d+$');
      series('switchboard_delivery_failures\\{kind="webhook"\\} 0$');
      series('switchboard_job_backlog\\{when="due"\\} \\d+$');
      series('switchboard_job_backlog\\{when="later"\\} \\d+$');
      series('switchboard_db_pool_connections\\{state="in_use"\\} \\d+$');
      series('switchboard_db_pool_connections\\{state="waiting"\\} \\d+$');
      // Every named worker is listed; the periodic ones count their passes (the snooze worker's come every second).
      series('switchboard_worker_up\\{worker="webhook dispatcher"\\} 1$');
      series('switchboard_worker_up\\{worker="idempotency.sweep"\\} 1$');
      const snooze = '{worker="conversations.snooze"}';
      await expect
        .poll(async () => valueOf(await scrape(), `switchboard_worker_runs_total${snooze}`))
        .toBeGreaterThan(0);
      const later = await scrape();
      expect(valueOf(later, `switchboard_worker_failures_total${snooze}`)).toBe(0);
      expect(valueOf(later, `switchboard_worker_last_run_seconds${snooze}`)).toBeGreaterThan(Date.now() / 1000 - 60);

      expect((await server.http.get('/metrics')).status).toBe(404);
    },
  );
});

describe('logs', () => {
  test(
    'every line logged for a request carries its id as a top-level field, outage lines included',
    { timeout: 120_000 },
    async () => {
      const databaseUrl = await createFreshDatabase();
      const { keys } = await prepareSpawnedTenant(databaseUrl);
      // No job worker: nothing but the requests below logs while they run.
      const running = spawnServer({
        DATABASE_URL: databaseUrl,
        PORT: '0',
        DB_STATEMENT_TIMEOUT_MS: '1000',
        JOB_WORKER: 'false',
      });
      const lock = new pg.Client({ connectionString: databaseUrl });
      try {
        const [, port] = await running.waitFor(/Switchboard ready on http:\/\/localhost:(\d+)/);
        /**
         * Sends a request and returns every line the server logged from then until the last of that request's lines
         * with these messages (its own `request completed`/`request errored` by default).
         */
        const linesOf = async (requestId: string, apiKey: string, lastMessages = ['request (completed|errored)']) => {
          const from = running.output().length;
          const reply = await fetch(`http://127.0.0.1:${port}${CHANNELS}`, {
            method: 'POST',
            headers: { 'X-Request-Id': requestId, 'X-API-Key': apiKey },
          });
          const logged = async (message: string) => {
            const [line] = await running.waitFor(
              new RegExp(`^.*"requestId":"${requestId}".*"msg":"${message}".*$`, 'm'),
              5000,
            );
            return running.output().indexOf(line, from) + line.length;
          };
          const end = Math.max(...(await Promise.all(lastMessages.map(logged))));
          const lines = running.output().slice(from, end).split('\n').filter(Boolean);
          return {
            status: reply.status,
            lines: lines.map((line) => JSON.parse(line) as { requestId?: string; msg: string }),
          };
        };
        const expectAllCarry = (requestId: string, lines: { requestId?: string; msg: string }[]) => {
          for (const line of lines) expect(line, JSON.stringify(line)).toMatchObject({ requestId });
        };

        const refused = await linesOf('trace-401', 'sb_live_nope');
        expect(refused.status).toBe(401);
        expectAllCarry('trace-401', refused.lines);

        // The request's query waits behind this lock until the statement timeout cancels it: a database outage.
        await lock.connect();
        await lock.query('begin; lock table channels in access exclusive mode');
        const outage = await linesOf('trace-503', keys[0]!);
        expect(outage.status).toBe(503);
        expect(outage.lines.map((line) => line.msg)).toContain('database unavailable: answering 503 until it is back');
        expectAllCarry('trace-503', outage.lines);

        await lock.query('commit');
        const recovered = await linesOf('trace-200', keys[0]!, ['request completed', 'database available again']);
        expect(recovered.status).toBe(200);
        expectAllCarry('trace-200', recovered.lines);
      } finally {
        await lock.end().catch(() => undefined);
        running.child.kill('SIGTERM');
        await running.exited;
      }
    },
  );
});
