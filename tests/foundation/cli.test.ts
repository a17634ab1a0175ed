import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFreshDatabase, sql } from '../helpers/database.js';
import { tenantSeed } from '../helpers/fixtures.js';
import { runCli } from '../helpers/processes.js';

const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-cli-'));
function seedFile(name: string, content: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('admin CLI', { timeout: 120_000 }, () => {
  let env: Record<string, string>;

  beforeAll(async () => {
    env = { DATABASE_URL: await createFreshDatabase() };
  });

  it('migrate applies the committed migrations once', async () => {
    const first = await runCli(['migrate'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).applied.length).toBeGreaterThan(0);
    const second = await runCli(['migrate'], env);
    expect(JSON.parse(second.stdout)).toEqual({ applied: [] });
  });

  it('seed creates everything in the file and prints what each ref became (stdout is only JSON)', async () => {
    const file = tenantSeed('Acme');
    const result = await runCli(['seed', seedFile('ok.json', file)], env);
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(Object.keys(out).sort()).toEqual([
      'automations',
      'broadcasts',
      'channels',
      'contacts',
      'messages',
      'plans',
      'platforms',
      'templates',
      'tickets',
      'users',
    ]);
    expect(out.platforms.p).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.users.owner).toEqual({ id: expect.any(String), apiKey: expect.stringMatching(/^sb_live_/) });
    expect(out.users.admin).toEqual({ id: expect.any(String), apiKey: null });
    expect(out.tickets.t1).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      shortId: expect.stringMatching(/^TK-/),
    });

    const [counts] = await sql(
      env.DATABASE_URL!,
      `select (select count(*) from contacts)::int as contacts, (select count(*) from contact_labels)::int as links,
      (select count(*) from channel_users)::int as members, (select variable_count from templates where name =
        'order_update') as vars`,
    );
    expect(counts).toEqual({ contacts: 4, links: 3, members: 4, vars: 2 });
  });

  it('writes nothing when any entry is invalid, and names its JSON path', async () => {
    const file = tenantSeed('Broken');
    file.contacts![2]!.labels = ['no-such-label'];
    const [before] = await sql(env.DATABASE_URL!, 'select count(*)::int as n from platforms');
    const result = await runCli(['seed', seedFile('bad-ref.json', file)], env);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/contacts\[2\]\.labels\[0\]: no label "no-such-label"/);
    const [after] = await sql(env.DATABASE_URL!, 'select count(*)::int as n from platforms');
    expect(after).toEqual(before);
  });

  it('reports schema problems with their path, and unreadable files', async () => {
    const badColor = await runCli(
      ['seed', seedFile('bad-color.json', { labels: [{ channel: 'x', name: 'a', color: 'red' }] })],
      env,
    );
    expect(badColor.code).not.toBe(0);
    expect(badColor.stderr).toMatch(/labels\[0\]\.color: must be a hex color/);
    const notJson = await runCli(['seed', seedFile('broken.json', '{"platforms": [')], env);
    expect(notJson.stderr).toMatch(/is not valid JSON/);
    const missing = await runCli(['seed', path.join(dir, 'missing.json')], env);
    expect(missing.stderr).toMatch(/Cannot read/);
  });

  it('creates and revokes API keys by email and prefix', async () => {
    const file = tenantSeed('Keys');
    const seeded = await runCli(['seed', seedFile('keys.json', file)], env);
    expect(seeded.code, seeded.stderr).toBe(0);
    const email = file.users![1]!.email;
    const created = await runCli(['key', 'create', '--email', email, '--name', 'ci'], env);
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toEqual({
      id: expect.any(String),
      prefix: key.apiKey.slice(0, 16),
      apiKey: expect.stringMatching(/^sb_live_/),
    });

    const revoked = await runCli(['key', 'revoke', '--prefix', key.prefix], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ prefix: key.prefix, revokedAt: expect.any(String) });
    const unknown = await runCli(['key', 'revoke', '--prefix', 'sb_live_nothere'], env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/No API key/);
  });

  it('adds webhook endpoints and sets portal passwords', async () => {
    const file = tenantSeed('Hooks');
    await runCli(['seed', seedFile('hooks.json', file)], env);
    const added = await runCli(
      ['webhook', 'add', '--platform', file.platforms![0]!.domain, '--url', 'http://127.0.0.1:9/hook'],
      { ...env, ALLOW_HTTP_WEBHOOKS: 'true' },
    );
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      events: ['ticket.closed'],
      secret: expect.stringMatching(/^whsec_/),
    });
    const unknownEvent = await runCli(
      [
        'webhook',
        'add',
        '--platform',
        file.platforms![0]!.domain,
        '--url',
        'http://127.0.0.1:9/x',
        '--events',
        'ticket.closed',
        'ticket.opened',
      ],
      env,
    );
    expect(unknownEvent.code).not.toBe(0);
    expect(unknownEvent.stderr).toMatch(
      /--events: unknown event type "ticket.opened"; known: ticket.closed, message.status.updated, message.received/,
    );
    const password = await runCli(['user', 'set-password', '--email', file.users![0]!.email], env, 'a-long-password\n');
    expect(password.code, password.stderr).toBe(0);
    const [row] = await sql(env.DATABASE_URL!, 'select password_hash from users where email = $1', [
      file.users![0]!.email,
    ]);
    expect(row!.password_hash).toMatch(/^scrypt\$/);
  });

  it('webhook add refuses what webhooks/manage refuses: http://, private, IPv4-compatible addresses', async () => {
    const file = tenantSeed('Guarded');
    await runCli(['seed', seedFile('guarded.json', file)], env);
    const domain = file.platforms![0]!.domain;
    for (const [url, problem] of [
      ['http://hooks.example.com/x', '--url: http:// is not allowed; use https://'],
      ['https://10.0.0.1/x', '--url: 10.0.0.1 resolves to a non-public address (10.0.0.1 is a private address)'],
      ['https://127.0.0.1:9/x', '--url: 127.0.0.1 resolves to a non-public address (127.0.0.1 is a loopback address)'],
      [
        'https://[::7f00:1]/x',
        '--url: [::7f00:1] resolves to a non-public address (::7f00:1 is a ipv4Compatible address)',
      ],
      ['not a url', '--url: must be an absolute URL'],
    ]) {
      const refused = await runCli(['webhook', 'add', '--platform', domain, '--url', url!], env);
      expect(refused.code, url).not.toBe(0);
      expect(refused.stderr, url).toContain(problem);
    }
    const [row] = await sql(
      env.DATABASE_URL!,
      'select count(*)::int as n from webhook_endpoints e join platforms p on p.id = e.platform_id where p.domain = $1',
      [domain],
    );
    expect(row).toEqual({ n: 0 });
  });

  it('documents every command with --help', async () => {
    for (const command of [
      [],
      ['seed'],
      ['key', 'create'],
      ['key', 'revoke'],
      ['migrate'],
      ['webhook', 'add'],
      ['user', 'set-password'],
    ]) {
      const help = await runCli([...command, '--help'], env);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/Usage: switchboard/);
    }
  });
});
