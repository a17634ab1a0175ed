import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { customerWrites } from '../helpers/event-stream.js';
import { skipWithout } from '../helpers/optional-services.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createPortalTenant, PASSWORD, type PortalTenant } from './portal-helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts/portal');
const withoutChromium = skipWithout(
  'chromium',
  existsSync(CHROMIUM),
  `Chromium not found at ${CHROMIUM} (apt-get install chromium)`,
);

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

describe.skipIf(withoutChromium)('Developer Portal in a real browser', { timeout: 120_000 }, () => {
  let server: TestServer;
  let tenant: PortalTenant;
  let browser: Browser;
  let desktop: BrowserContext;
  let page: Page;
  /** Everything the browser asked for and every console error, checked at the end: no outside network, no CSP hit. */
  const requested: string[] = [];
  const consoleErrors: string[] = [];

  const url = (p: string) => `${server.baseUrl}${p}`;
  // Whole pages, except the reference: it is thousands of pixels tall, so only what the screen shows.
  const shot = (target: Page, name: string) =>
    target.screenshot({
      path: path.join(ARTIFACTS, `${name}.png`),
      fullPage: !name.includes('reference'),
      animations: 'disabled',
    });
  const callApi = (apiKey: string) =>
    fetch(url('/api/workspace/v1/channels/list'), {
      method: 'POST',
      headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
      body: '{}',
    });

  async function newContext(options: typeof DESKTOP | typeof PHONE): Promise<BrowserContext> {
    const context = await browser.newContext({ ...options, acceptDownloads: true });
    context.on('request', (request) => requested.push(request.url()));
    context.on('page', (opened) =>
      opened.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text())),
    );
    return context;
  }

  async function signIn(target: Page, email: string, password: string) {
    await target.goto(url('/developer/'));
    await target.getByLabel('Email').fill(email);
    await target.getByLabel('Password').fill(password);
    await target.getByRole('button', { name: 'Sign in' }).click();
  }

  async function generateKey(target: Page, name: string): Promise<string> {
    await target.goto(url('/developer/keys'));
    await target.getByLabel('Key name').fill(name);
    await target.getByRole('button', { name: 'Generate API key' }).click();
    await expect.poll(() => target.getByRole('heading', { name: 'Key generated' }).isVisible()).toBe(true);
    return target.getByLabel('API key').inputValue();
  }

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await startTestServer();
    tenant = await createPortalTenant(server);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
    desktop = await newContext(DESKTOP);
    await desktop.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    page = await desktop.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs in with email and password', async () => {
    await page.goto(url('/developer/'));
    await expect.poll(() => page.url()).toBe(url('/developer/sign-in'));
    await shot(page, 'sign-in');
    await signIn(page, tenant.devEmail, PASSWORD);
    await page.waitForURL(url('/developer/keys'));
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('API keys');
    expect(await page.getByRole('banner').innerText()).toContain(tenant.devEmail);
  });

  it('says the email or password is incorrect, without saying which', async () => {
    const other = await (await newContext(DESKTOP)).newPage();
    await signIn(other, tenant.devEmail, 'wrong password');
    expect(await other.getByRole('alert').innerText()).toBe('The email or password is incorrect.');
    expect(await other.getByLabel('Email').inputValue()).toBe(tenant.devEmail);
    await shot(other, 'sign-in-wrong-password');
    await signIn(other, 'nobody@example.com', 'wrong password');
    expect(await other.getByRole('alert').innerText()).toBe('The email or password is incorrect.');
    await other.context().close();
  });

  it('shows a 403 page to a user without settings:api, who can still sign out', async () => {
    const other = await (await newContext(DESKTOP)).newPage();
    const keysReply = other.waitForResponse((reply) => reply.url() === url('/developer/keys'));
    await signIn(other, tenant.plainEmail, PASSWORD);
    expect((await keysReply).status()).toBe(403);
    expect(await other.getByRole('heading', { level: 1 }).innerText()).toMatch(/don’t have access/);
    expect(await other.getByRole('main').innerText()).toContain('settings:api');
    expect(await other.getByRole('navigation').count()).toBe(0);
    await shot(other, 'forbidden');
    await other.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
    await other.waitForURL(url('/developer/sign-in?signed-out=1'));
    expect(await other.getByRole('status').first().innerText()).toBe('You have signed out.');
    await other.context().close();
  });

  let firstKey: string;

  it('generates a key shown once with a copy button, and the API accepts it', async () => {
    firstKey = await generateKey(page, 'Browser test key');
    expect(firstKey).toMatch(/^sb_live_[A-Za-z0-9_-]{43}$/);
    await shot(page, 'key-created');
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Copied' }).count()).toBe(1);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(firstKey);
    // An AI agent's configuration, with the new key in it, is one click away too.
    await page.getByRole('button', { name: 'Copy the MCP client configuration over HTTP' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Copied' }).count()).toBe(2);
    const config = JSON.parse(String(await page.evaluate('navigator.clipboard.readText()')));
    expect(config.mcpServers.switchboard).toEqual({
      type: 'http',
      url: url('/mcp'),
      headers: { 'X-API-Key': firstKey },
    });
    const reply = await callApi(firstKey);
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as { data: { id: string }[] }).data.map((c) => c.id)).toEqual([tenant.channelId]);
    // Never again: the listing shows only the prefix.
    await page.goto(url('/developer/keys'));
    expect(await page.content()).not.toContain(firstKey);
  });

  it('lists the key with name, prefix, creation and last use', async () => {
    const row = page.locator(`tr[data-prefix="${firstKey.slice(0, 16)}"]`);
    // last_used_at is written just after the call is served; reload until the page shows it.
    await expect
      .poll(
        async () => {
          await page.reload();
          return row.locator('td.last-used').innerText();
        },
        { timeout: 10_000 },
      )
      .toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    const text = await row.innerText();
    expect(text).toContain('Browser test key');
    expect(text).toContain(firstKey.slice(0, 16));
    expect(text).toContain('Active');
    await shot(page, 'keys');
  });

  it('revokes the key after a confirmation step, and the API refuses it at once', async () => {
    const prefix = firstKey.slice(0, 16);
    await page.getByRole('link', { name: `Revoke Browser test key (${prefix})` }).click();
    await page.waitForURL(url(`/developer/keys/${prefix}/revoke`));
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Revoke “Browser test key”?');
    expect((await callApi(firstKey)).status).toBe(200);
    await shot(page, 'revoke-confirm');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForURL(url(`/developer/keys?revoked=${prefix}`));
    expect(await page.getByRole('status').first().innerText()).toContain(`Key ${prefix}… was revoked`);
    expect(await page.locator(`tr[data-prefix="${prefix}"]`).innerText()).toContain('Revoked');
    expect(await page.getByRole('link', { name: `Revoke Browser test key (${prefix})` }).count()).toBe(0);
    const refused = await callApi(firstKey);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe('unauthorized');
  });

  it('sends a request from the interactive reference with the new key', async () => {
    const key = await generateKey(page, 'Reference key');
    await page.getByRole('button', { name: 'Try requests with this key' }).click();
    await page.waitForURL(url('/developer/reference'));
    expect(await page.locator('#try-key-prefix').innerText()).toBe(`${key.slice(0, 16)}…`);
    // The reference opens on its first endpoint, workspace/me: who the key is, a newcomer's first request.
    await page.getByRole('link', { name: 'Who this API key is: its user and channels' }).first().click();
    await shot(page, 'reference');
    await page.getByRole('button', { name: /Test Request\s*\(post \/api\/workspace\/v1\/me\)/ }).click();
    const sent = page.waitForResponse(
      (reply) => reply.url() === url('/api/workspace/v1/me') && reply.request().method() === 'POST',
    );
    await page.getByRole('button', { name: /^Send post request/ }).click();
    const reply = await sent;
    expect(reply.status()).toBe(200);
    expect(await reply.request().headerValue('x-api-key')).toBe(key);
    expect(((await reply.json()) as { data: { channels: { id: string }[] } }).data.channels[0]!.id).toBe(
      tenant.channelId,
    );
    await expect.poll(() => page.getByText('200 OK').first().isVisible()).toBe(true);
    await shot(page, 'reference-response');
  });

  it('downloads OpenAPI JSON, OpenAPI YAML, a Postman collection and its environment that parse', async () => {
    await page.goto(url('/developer/downloads'));
    await shot(page, 'downloads');
    const download = async (label: string) => {
      const started = page.waitForEvent('download');
      await page.getByRole('link', { name: label }).click();
      const file = await started;
      return { name: file.suggestedFilename(), text: await readFile((await file.path())!, 'utf8') };
    };
    const json = await download('Download JSON');
    expect(json.name).toBe('switchboard-openapi.json');
    const doc = JSON.parse(json.text);
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers[0].variables.baseUrl.default).toBe(server.baseUrl);
    expect(doc.paths['/api/workspace/v1/channels/list'].post).toBeDefined();

    const yaml = await download('Download YAML');
    expect(yaml.name).toBe('switchboard-openapi.yaml');
    expect(parseYaml(yaml.text)).toEqual(doc);

    const postman = await download('Download collection');
    expect(postman.name).toBe('switchboard.postman_collection.json');
    const collection = JSON.parse(postman.text);
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(collection.info.name).toEqual(expect.any(String));
    expect(collection.item.length).toBeGreaterThan(0);
    expect(collection.variable.map((v: { key: string }) => v.key)).toEqual(
      expect.arrayContaining(['baseUrl', 'apiKey']),
    );

    const environment = await download('Download environment');
    expect(environment.name).toBe('switchboard.postman_environment.json');
    const values = JSON.parse(environment.text).values as { key: string; value: string }[];
    expect(values.map((v) => v.key).sort()).toEqual(collection.variable.map((v: { key: string }) => v.key).sort());
    expect(values.find((v) => v.key === 'channelId')?.value).toBe(tenant.channelId);
  });

  it('adds a webhook endpoint, copies its secret once, rotates it after confirming, and fits a phone', async () => {
    await page.getByRole('navigation', { name: 'Portal sections' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(url('/developer/webhooks'));
    await page.getByLabel('Endpoint URL').fill('https://hooks.example.com/browser');
    await page.getByLabel('message.received').check();
    await shot(page, 'webhooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Endpoint added' }).isVisible()).toBe(true);
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Copied' }).count()).toBe(1);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await shot(page, 'webhook-created');

    await page.getByRole('link', { name: 'Manage this endpoint' }).click();
    expect(await page.getByRole('main').innerText()).toMatch(/ticket\.closed\s+message\.received/);
    const detail = page.url();
    await page.getByRole('link', { name: 'Rotate secret' }).click();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Secret rotated' }).isVisible()).toBe(true);
    const rotated = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.goto(url('/developer/webhooks'));
    expect(await page.content()).not.toContain('whsec_');

    const phone = await (await newContext(PHONE)).newPage();
    await signIn(phone, tenant.devEmail, PASSWORD);
    for (const [name, p] of [
      ['phone-webhooks', url('/developer/webhooks')],
      ['phone-webhook-detail', detail],
    ] as const) {
      await phone.goto(p);
      expect(await phone.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), name).toBe(true);
      await shot(phone, name);
    }
    await phone.context().close();
  });

  it('fits a phone screen on every page', async () => {
    const phone = await (await newContext(PHONE)).newPage();
    const fits = () => phone.evaluate('document.documentElement.scrollWidth <= window.innerWidth');
    await phone.goto(url('/developer/sign-in'));
    expect(await fits()).toBe(true);
    await shot(phone, 'phone-sign-in');
    await signIn(phone, tenant.devEmail, PASSWORD);
    await phone.waitForURL(url('/developer/keys'));
    const key = await generateKey(phone, 'Phone key');
    expect(await fits()).toBe(true);
    await shot(phone, 'phone-key-created');
    for (const [name, p] of [
      ['phone-keys', '/developer/keys'],
      ['phone-revoke-confirm', `/developer/keys/${key.slice(0, 16)}/revoke`],
      ['phone-downloads', '/developer/downloads'],
      ['phone-channels', '/developer/channels'],
      ['phone-channel-connect', `/developer/channels/${tenant.channelId}/connect`],
      ['phone-reference', '/developer/reference'],
    ] as const) {
      await phone.goto(url(p));
      if (name === 'phone-reference') await phone.getByRole('heading', { name: 'Switchboard API' }).waitFor();
      expect(await fits(), name).toBe(true);
      await shot(phone, name);
    }
    await phone.context().close();
  });

  it('is labelled, has landmarks and shows where the keyboard focus is', async () => {
    // Keys page: nothing is autofocused, so the first Tab lands on the skip link, drawn with a solid focus ring.
    await page.goto(url('/developer/keys'));
    await page.keyboard.press('Tab');
    // Browser-side snippets are strings: the test project compiles without the DOM library.
    const focused = (await page.evaluate(`(() => {
      const el = document.activeElement;
      return { text: el.textContent, outline: getComputedStyle(el).outlineStyle, top: el.getBoundingClientRect().top };
    })()`)) as { text: string; outline: string; top: number };
    expect(focused).toMatchObject({ text: 'Skip to content', outline: 'solid' });
    expect(focused.top).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.id')).toBe('main');
    for (const p of [
      '/developer/keys',
      '/developer/downloads',
      '/developer/channels',
      `/developer/channels/${tenant.channelId}/connect`,
    ]) {
      await page.goto(url(p));
      expect(await page.getByRole('banner').count()).toBe(1);
      expect(await page.getByRole('main').count()).toBe(1);
      expect(await page.getByRole('navigation', { name: 'Portal sections' }).count()).toBe(1);
      const unlabelled = await page.evaluate(
        `[...document.querySelectorAll('input:not([type="hidden"])')].filter((i) => i.labels.length === 0 && ` +
          `!i.getAttribute('aria-label')).length`,
      );
      expect(unlabelled, p).toBe(0);
    }
  });

  it('tails live events, and says the tail ended once the session did (signed out in another tab)', async () => {
    const tailing = await (await newContext(DESKTOP)).newPage();
    await signIn(tailing, tenant.devEmail, PASSWORD);
    await tailing.goto(url('/developer/events'));
    const status = tailing.locator('#event-tail-status');
    await expect.poll(() => status.innerText()).toBe('Live: waiting for events.');
    await customerWrites(server, tenant.channelId, 'Is my parcel on its way?');
    await expect
      .poll(() => tailing.locator('#event-tail li').first().innerText())
      .toContain('Is my parcel on its way?');
    const other = await tailing.context().newPage();
    await other.goto(url('/developer/keys'));
    await other.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await other.waitForURL(url('/developer/sign-in?signed-out=1'));
    // The next ping (within 15 s) ends the tail; the browser's reconnection finds the sign-in page.
    await expect
      .poll(() => status.innerText(), { timeout: 40_000 })
      .toBe('Ended: your session is over or your access changed. Sign in again to resume.');
    await tailing.context().close();
  });

  it('made no request outside this server and hit no content-security-policy violation', () => {
    expect(requested.length).toBeGreaterThan(20);
    const outside = requested.filter(
      (r) => !r.startsWith(server.baseUrl) && !r.startsWith('data:') && !r.startsWith('blob:'),
    );
    expect(outside).toEqual([]);
    // Refusals the tests cause on purpose: 401/403 replies, and the ended tail's reconnection finding the sign-in
    // page (Chromium reports the HTML reply as an error, which is how EventSource learns to stop).
    const expected = /status of 40[13]|^EventSource's response has a MIME type \("text\/html"\)/;
    expect(consoleErrors.filter((e) => !expected.test(e))).toEqual([]);
  });
});
