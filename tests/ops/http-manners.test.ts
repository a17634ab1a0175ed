import { describe, expect } from 'vitest';
import { createFreshDatabase } from '../helpers/database.js';
import { spawnServer } from '../helpers/processes.js';
import { test } from '../helpers/test.js';

const ORIGIN = 'https://app.example.com';
const CHANNELS = '/api/workspace/v1/channels/list';

test.override('serverEnv', { METRICS_PORT: '0', CORS_ORIGINS: `${ORIGIN},http://localhost:5173` });

describe('/ for people who open the address', () => {
  test('answers JSON by default with links to the portal and the definitions', async ({ server }) => {
    const reply = await server.http.get('/');
    expect(reply.status).toBe(200);
    expect(reply.data).toMatchObject({ success: true, data: { links: { developerPortal: '/developer', openApiJson: '/developer/downloads/openapi.json' } } });
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
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-api-key,content-type' },
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
    const reply = await server.http.post(CHANNELS, {}, { headers: { Origin: 'https://evil.example.com', 'X-API-Key': acme.ownerKey } });
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });
});

/** The value of one series in a Prometheus text scrape (0 when absent). */
function valueOf(scrape: string, series: string): number {
  const line = scrape.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('metrics', () => {
  test('/metrics on METRICS_PORT exposes requests, latency, rate-limit refusals, queue depth, delivery failures and the pool', async ({ server, acme }) => {
    const scrape = async () => {
      const reply = await fetch(server.metricsUrl!);
      expect(reply.status).toBe(200);
      return reply.text();
    };
    const ok = `switchboard_http_requests_total{method="POST",route="${CHANNELS}",status="200"}`;
    const refused = `switchboard_http_requests_total{method="POST",route="${CHANNELS}",status="429"}`;
    const unmatched = 'switchboard_http_requests_total{method="GET",route="unmatched",status="404"}';
    const slowest = `switchboard_http_request_duration_seconds_bucket{le="+Inf",method="POST",route="${CHANNELS}",status="200"}`;
    const refusals = 'switchboard_rate_limit_refusals_total{rate_class="api_read"}';
    const before = await scrape();

    const replies = await Promise.all(Array.from({ length: 121 }, () => server.http.post(CHANNELS, {}, { headers: { 'X-API-Key': acme.memberKey } })));
    expect(replies.filter((r) => r.status === 429)).toHaveLength(1);
    await server.http.get('/no/such/path');

    const after = await scrape();
    const delta = (series: string) => valueOf(after, series) - valueOf(before, series);
    expect([delta(ok), delta(refused), delta(unmatched), delta(slowest), delta(refusals)]).toEqual([120, 1, 1, 120, 1]);
    const series = (pattern: string) => expect(after).toMatch(new RegExp(`^${pattern}`, 'm'));
    series('switchboard_job_queue_jobs\\{queue="webhook.deliver",state="ready"\\} \\d+$');
    series('switchboard_job_queue_jobs\\{queue="email.send",state="failed"\\} \\d+$');
    series('switchboard_delivery_failures\\{kind="webhook"\\} 0$');
    series('switchboard_db_pool_connections\\{state="in_use"\\} \\d+$');
    series('switchboard_db_pool_connections\\{state="waiting"\\} \\d+$');

    expect((await server.http.get('/metrics')).status).toBe(404);
  });
});

describe('logs', () => {
  test('every line of a request carries its id as a top-level field', { timeout: 120_000 }, async () => {
    const running = spawnServer({ DATABASE_URL: await createFreshDatabase(), MIGRATE_ON_START: 'true', PORT: '0' });
    try {
      const [, port] = await running.waitFor(/Switchboard ready on http:\/\/localhost:(\d+)/);
      await fetch(`http://127.0.0.1:${port}${CHANNELS}`, { method: 'POST', headers: { 'X-Request-Id': 'trace-123', 'X-API-Key': 'sb_live_nope' } });
      await running.waitFor(/"requestId":"trace-123"/);
    } finally {
      running.child.kill('SIGTERM');
      await running.exited;
    }
    const lines = running.output().split('\n').filter((line) => line.includes('trace-123')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.requestId).toBe('trace-123');
  });
});
