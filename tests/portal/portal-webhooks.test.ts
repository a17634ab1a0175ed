import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { openWebhookSecret } from '../helpers/secrets-key.js';
import { test as base } from '../helpers/test.js';
import { createPortalTenant, OTHER_PASSWORD, PASSWORD, PortalAgent, type Form } from './portal-helpers.js';

const HOOKS = '/developer/webhooks';
/** Does not resolve here: accepted (nothing to refuse), checked again at every delivery. */
const HOOK_URL = 'https://hooks.example.com/portal';
const SECRET = /value="(whsec_[^"]+)"/;

const test = base
  .extend('tenant', { scope: 'file' }, ({ server }) => createPortalTenant(server))
  /** Dana, signed in on platform A, with the CSRF token of her pages. */
  .extend('dana', async ({ server, tenant }) => {
    const agent = new PortalAgent(server.baseUrl);
    expect((await agent.signIn(tenant.devEmail, PASSWORD)).status).toBe(303);
    const token = PortalAgent.csrf((await agent.get(HOOKS)).text);
    return { agent, token, post: (path: string, form: Form = {}) => agent.post(path, { _csrf: token, ...form }) };
  })
  .extend('addEndpoint', ({ server, dana }) => async (url = HOOK_URL) => {
    const page = await dana.post(HOOKS, { url, events: 'ticket.closed' });
    expect(page.status).toBe(200);
    const [row] = await sql<{ id: string; secret_ciphertext: string }>(
      server.databaseUrl,
      'select id, secret_ciphertext from webhook_endpoints where url = $1 order by created_at desc limit 1',
      [url],
    );
    return { id: row!.id, secret: openWebhookSecret(row!.id, row!.secret_ciphertext), page };
  });

/** A finished delivery of `endpointId` in the log, as the worker would have left it. */
async function seedDelivery(
  databaseUrl: string,
  endpointId: string,
  status: 'failed' | 'pending',
): Promise<{ id: string; webhookId: string }> {
  const webhookId = `msg_${randomUUID().replaceAll('-', '')}`;
  const [delivery] = await sql<{ id: string }>(
    databaseUrl,
    `insert into webhook_deliveries (endpoint_id, webhook_id, event_type, payload, status, attempts, last_status_code,
      last_error)
     values ($1, $2, 'ticket.closed', '{}', $3, 1, 500, 'HTTP 500') returning id`,
    [endpointId, webhookId, status],
  );
  await sql(
    databaseUrl,
    `insert into webhook_attempts (delivery_id, attempt, status_code, error, duration_ms) values ($1, 1, 500, 'HTTP ` +
      `500', 42)`,
    [delivery!.id],
  );
  return { id: delivery!.id, webhookId };
}

// Signing in is a scrypt run at OWASP's cost (128 MiB, up to seconds on a loaded 2-core machine).
describe('Developer Portal: webhooks page', { timeout: 120_000 }, () => {
  test('is behind sign-in and settings:api, in the navigation', async ({ server, tenant, dana }) => {
    expect((await new PortalAgent(server.baseUrl).get(HOOKS)).headers.get('location')).toBe('/developer/sign-in');
    const plain = new PortalAgent(server.baseUrl);
    await plain.signIn(tenant.plainEmail, PASSWORD);
    for (const path of [HOOKS, `${HOOKS}/${randomUUID()}`]) {
      const refused = await plain.get(path);
      expect(refused.status, path).toBe(403);
      expect(refused.text).toContain('settings:api');
    }
    const page = await dana.agent.get(HOOKS);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<a href="${HOOKS}" aria-current="page">Webhooks</a>`);
    expect(page.text).toContain('message.status.updated');
  });

  test('adds an endpoint and shows its secret once', async ({ server, tenant, dana }) => {
    const created = await dana.post(HOOKS, {
      url: `${HOOK_URL}/once`,
      description: 'Portal test',
      events: ['ticket.closed', 'message.received'],
    });
    expect(created.status).toBe(200);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const secret = SECRET.exec(created.text)![1]!;
    const [row] = await sql(
      server.databaseUrl,
      'select id, secret_ciphertext, events, description, platform_id from webhook_endpoints where url = $1',
      [`${HOOK_URL}/once`],
    );
    expect(openWebhookSecret(row!.id as string, row!.secret_ciphertext as string)).toBe(secret);
    expect(row).toEqual({
      id: expect.any(String),
      secret_ciphertext: expect.stringMatching(/^v1\./),
      events: ['ticket.closed', 'message.received'],
      description: 'Portal test',
      platform_id: tenant.platformAId,
    });
    const listing = await dana.agent.get(HOOKS);
    expect(listing.text).toContain(`${HOOK_URL}/once`);
    expect(listing.text).not.toContain('whsec_');
  });

  test('names what is wrong in the form and keeps what was typed', async ({ dana }) => {
    const cases: [Record<string, string>, string][] = [
      [{ url: '', events: 'ticket.closed' }, 'Enter the URL that receives the events.'],
      [{ url: 'http://hooks.example.com/x', events: 'ticket.closed' }, 'http:// is not allowed; use https://'],
      [{ url: 'https://localhost/x', events: 'ticket.closed' }, 'localhost resolves to a non-public address'],
      [{ url: 'https://10.0.0.8/x', events: 'ticket.closed' }, '10.0.0.8 is a private address'],
      [{ url: `${HOOK_URL}/none` }, 'must name at least one event type'],
      [
        { url: `${HOOK_URL}/long`, events: 'ticket.closed', description: 'x'.repeat(501) },
        'must be at most 500 characters',
      ],
    ];
    for (const [form, problem] of cases) {
      const reply = await dana.post(HOOKS, form);
      expect(reply.status, problem).toBe(400);
      expect(reply.text).toContain(problem);
      expect(reply.text).toContain('class="field-error"');
      if (form.url) expect(reply.text).toContain(`value="${form.url}"`);
    }
    expect((await dana.agent.post(HOOKS, { url: HOOK_URL, events: 'ticket.closed' })).status).toBe(403);
  });

  test('disables and enables, rotates the secret (shown once) and deletes after confirmation', async ({
    server,
    dana,
    addEndpoint,
  }) => {
    const endpoint = await addEndpoint(`${HOOK_URL}/lifecycle`);
    const detail = `${HOOKS}/${endpoint.id}`;
    expect((await dana.agent.get(detail)).text).toContain('No deliveries yet.');

    const disabled = await dana.post(`${detail}/enabled`, { enabled: 'false' });
    expect(disabled.headers.get('location')).toBe(`${detail}?done=disabled`);
    expect((await dana.agent.get(`${detail}?done=disabled`)).text).toMatch(
      /no new events are sent to it[\s\S]*badge revoked">Disabled/,
    );
    await dana.post(`${detail}/enabled`, { enabled: 'true' });
    const [enabled] = await sql(server.databaseUrl, 'select is_active from webhook_endpoints where id = $1', [
      endpoint.id,
    ]);
    expect(enabled).toEqual({ is_active: true });

    expect((await dana.agent.get(`${detail}/rotate`)).text).toContain('keeps signing beside it for 24 hours');
    const rotated = await dana.post(`${detail}/rotate`);
    const secret = SECRET.exec(rotated.text)![1]!;
    expect(rotated.text).toContain('The previous secret keeps signing beside the new one');
    const [row] = await sql<{ secret_ciphertext: string; previous_secret_ciphertext: string }>(
      server.databaseUrl,
      'select secret_ciphertext, previous_secret_ciphertext from webhook_endpoints where id = $1',
      [endpoint.id],
    );
    expect(openWebhookSecret(endpoint.id, row!.secret_ciphertext)).toBe(secret);
    expect(openWebhookSecret(endpoint.id, row!.previous_secret_ciphertext)).toBe(endpoint.secret);

    expect((await dana.agent.get(`${detail}/delete`)).text).toContain('This cannot be undone.');
    const deleted = await dana.post(`${detail}/delete`);
    expect(deleted.headers.get('location')).toBe(`${HOOKS}?done=deleted`);
    expect(await sql(server.databaseUrl, 'select 1 from webhook_endpoints where id = $1', [endpoint.id])).toEqual([]);
    expect((await dana.agent.get(detail)).status).toBe(404);
  });

  test('lists recent deliveries and redelivers a finished one', async ({ server, dana, addEndpoint }) => {
    const endpoint = await addEndpoint(`${HOOK_URL}/log`);
    const detail = `${HOOKS}/${endpoint.id}`;
    const failed = await seedDelivery(server.databaseUrl, endpoint.id, 'failed');
    const pending = await seedDelivery(server.databaseUrl, endpoint.id, 'pending');
    const page = (await dana.agent.get(detail)).text;
    expect(page).toContain(failed.webhookId);
    expect(page).toContain('1 · last: HTTP 500, 42 ms');
    expect(page).toContain(`${detail}/deliveries/${failed.id}/redeliver`);
    expect(page).not.toContain(`${detail}/deliveries/${pending.id}/redeliver`);

    const refused = await dana.post(`${detail}/deliveries/${pending.id}/redeliver`);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('this delivery is still pending');
    const redelivered = await dana.post(`${detail}/deliveries/${failed.id}/redeliver`);
    expect(redelivered.headers.get('location')).toBe(`${detail}?done=redelivered`);
    const [row] = await sql(server.databaseUrl, 'select status, webhook_id from webhook_deliveries where id = $1', [
      failed.id,
    ]);
    expect(row).toEqual({ status: 'pending', webhook_id: failed.webhookId });
  });

  test('answers another platform’s endpoint 403 and a missing or malformed one 404, as the API does', async ({
    server,
    tenant,
    addEndpoint,
  }) => {
    const endpoint = await addEndpoint(`${HOOK_URL}/alpha`);
    const beta = new PortalAgent(server.baseUrl);
    await beta.signIn(tenant.devEmail, OTHER_PASSWORD);
    const token = PortalAgent.csrf((await beta.get(HOOKS)).text);
    expect((await beta.get(HOOKS)).text).not.toContain(`${HOOK_URL}/alpha`);
    // As webhooks/manage answers: another platform's endpoint is 403, no endpoint at all 404.
    for (const path of [`${HOOKS}/${endpoint.id}`, `${HOOKS}/${endpoint.id}/delete`])
      expect((await beta.get(path)).status, path).toBe(403);
    for (const path of [`${HOOKS}/not-an-id`, `${HOOKS}/${randomUUID()}`])
      expect((await beta.get(path)).status, path).toBe(404);
    for (const action of ['delete', 'rotate', 'enabled'])
      expect((await beta.post(`${HOOKS}/${endpoint.id}/${action}`, { _csrf: token })).status, action).toBe(403);
    const [row] = await sql<{ secret_ciphertext: string; is_active: boolean }>(
      server.databaseUrl,
      'select secret_ciphertext, is_active from webhook_endpoints where id = $1',
      [endpoint.id],
    );
    expect(row!.is_active).toBe(true);
    expect(openWebhookSecret(endpoint.id, row!.secret_ciphertext)).toBe(endpoint.secret);
  });
});
