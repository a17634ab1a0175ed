import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SwitchboardEvent } from '@switchboard/client';
import type { SeedFile, SeedResult } from '@switchboard/server';
import { WEBHOOK_EVENTS } from '@switchboard/contract';
import { API_FILES, writeApiFiles, type PostmanEnvironment } from '@switchboard/openapi';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { REPO_ROOT, runCli } from '../helpers/processes.js';
import { freePort } from '../helpers/ports.js';
import { test } from '../helpers/test.js';
import { run, SLOW_TIMEOUT_MS } from '../sdk/commands.js';
import { collectionRoutes } from './routes.js';
import { WEBHOOK_PATH, webhookApp } from '../../examples/src/webhook-receiver.js';
import { demoVariables, singleChannelDemo } from './demo-ids.js';

const NEWMAN = path.join(REPO_ROOT, 'tests/node_modules/.bin/newman');

interface NewmanRun {
  stats: { requests: { total: number }; assertions: { total: number; failed: number } };
  executions: {
    cursor: { ref: string };
    item: { name: string };
    request: { method: string; url: { path: string[] }; body?: { raw: string } };
    assertions?: { assertion: string; error?: { message: string } }[];
  }[];
}

/** The exported environment file with `values` filled in, as a user fills it in Postman. */
function filledEnvironment(dir: string, values: Record<string, string | undefined>): string {
  const environment = JSON.parse(
    readFileSync(path.join(dir, API_FILES.postmanEnvironment), 'utf8'),
  ) as PostmanEnvironment;
  const filled = {
    ...environment,
    values: environment.values.map((entry) => ({ ...entry, value: values[entry.key] ?? entry.value })),
  };
  const file = path.join(dir, `filled-${Object.keys(values).length}.postman_environment.json`);
  writeFileSync(file, JSON.stringify(filled));
  return file;
}

async function newman(
  dir: string,
  environment: string,
): Promise<{ code: number | null; output: string; run: NewmanRun }> {
  const report = path.join(dir, 'report.json');
  const args = [
    'run',
    API_FILES.postman,
    '-e',
    environment,
    '--reporters',
    'cli,json',
    '--reporter-json-export',
    report,
    '--color',
    'off',
  ];
  const result = await run(NEWMAN, args, { cwd: dir });
  return {
    code: result.code,
    output: result.stdout.slice(-3000),
    run: JSON.parse(readFileSync(report, 'utf8')).run as NewmanRun,
  };
}

/**
 * The executions, one per request item: newman's JSON report lists an item whose pre-request script sends
 * requests (postman-setup.ts) once more per request sent, under the same cursor.
 */
const onePerItem = (run: NewmanRun) => [
  ...new Map(run.executions.map((execution) => [execution.cursor.ref, execution])).values(),
];

const failures = (run: NewmanRun) =>
  run.executions.flatMap((execution) =>
    (execution.assertions ?? [])
      .filter((a) => a.error)
      .map((a) => `${execution.item.name}: ${a.assertion}: ${a.error!.message.slice(0, 200)}`),
  );

describe('the Postman collection and its environment file, run by newman against the seeded demo', () => {
  let dir: string;
  let variables: ReturnType<typeof demoVariables>;
  /** The key of a second user like the demo owner: a run's writes take half of a user's api_write budget a minute. */
  let secondKey: string;

  test.beforeAll(async ({ server }) => {
    const ids = await server.seed(singleChannelDemo);
    variables = demoVariables(server.baseUrl, ids);
    const owner = singleChannelDemo.users!.find((user) => user.ref === 'owner')!;
    const second = await server.seed({
      users: [
        {
          ...owner,
          ref: 'second',
          platform: ids.platforms!.demo!,
          email: 'second@demo.switchboard.local',
          password: undefined,
        },
      ],
    });
    await sql(server.databaseUrl, 'insert into channel_users (channel_id, user_id) values ($1, $2)', [
      ids.channels!.support,
      second.users!.second!.id,
    ]);
    secondKey = second.users!.second!.apiKey!;
    dir = mkdtempSync(path.join(tmpdir(), 'switchboard-newman-'));
    await writeApiFiles(dir, { serverUrl: server.baseUrl });
  });
  test.afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test(
    'every request passes its tests (status 200, success, reply schema) with the environment filled in; each ' +
      'webhook example reaches the receiver, verified',
    async () => {
      // The examples' Express receiver, verifying with the SDK what the collection's scripts signed.
      const secret = `whsec_${randomBytes(24).toString('base64')}`;
      const events: SwitchboardEvent[] = [];
      const receiver = webhookApp(secret, (event) => void events.push(event)).listen(0, '127.0.0.1');
      await once(receiver, 'listening');
      const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${WEBHOOK_PATH}`;
      try {
        const environment = filledEnvironment(dir, { ...variables, webhookUrl, webhookSecret: secret });
        const { code, output, run } = await newman(dir, environment);
        expect(failures(run), output).toEqual([]);
        const tested = onePerItem(run).map(
          (execution) => `${execution.request.method} /${execution.request.url.path.join('/')}`,
        );
        const routes = tested.filter((route) => route.includes('/api/'));
        // One request per route, and one per further example of a POST (chat/message/send's kinds).
        expect(routes.sort()).toEqual(collectionRoutes().sort());
        expect(tested.filter((route) => !route.includes('/api/'))).toEqual(
          Object.keys(WEBHOOK_EVENTS).map(() => `POST ${WEBHOOK_PATH}`),
        );
        expect(events.map((event) => event.type)).toEqual(Object.keys(WEBHOOK_EVENTS));
        expect(run.stats.assertions.total).toBe(routes.length * 3 + events.length);
        expect(code).toBe(0);
      } finally {
        receiver.close();
      }
    },
    SLOW_TIMEOUT_MS,
  );

  test(
    'with only baseUrl and apiKey set, the collection fills every id it needs from the API',
    async () => {
      const { code, run } = await newman(
        dir,
        filledEnvironment(dir, { baseUrl: variables.baseUrl, apiKey: secondKey }),
      );
      expect(failures(run)).toEqual([]);
      expect(code).toBe(0);
      // addon/manage's pre-request script found the demo's one subscribed user (the owner) and its add-on.
      const assigns = onePerItem(run).filter(
        ({ request }) => request.method === 'POST' && request.url.path.join('/') === 'api/platform/v1/addon/manage',
      );
      expect(assigns.map((execution) => JSON.parse(execution.request.body!.raw))).toEqual([
        expect.objectContaining({
          platformId: variables.platformId,
          userId: variables.userId,
          addonId: variables.addonId,
        }),
      ]);
    },
    SLOW_TIMEOUT_MS,
  );

  test(
    'fails (non-zero exit, failed assertions) when the server is down',
    async () => {
      const down = `http://127.0.0.1:${await freePort()}`;
      const { code, run } = await newman(dir, filledEnvironment(dir, { ...variables, baseUrl: down }));
      expect(code).not.toBe(0);
      expect(run.stats.assertions.failed).toBeGreaterThan(0);
    },
    SLOW_TIMEOUT_MS,
  );
});

/** The routes whose examples once named the demo's records (#38): each now uses one a request before it made. */
const ONCE_DEMO_ONLY = [
  'platform/v1/addon/manage',
  'platform/v1/tickets/get',
  'workspace/v1/automations/manage',
  'workspace/v1/broadcasts/manage',
  'workspace/v1/broadcasts/recipients',
  'workspace/v1/chat/templates/send',
  'workspace/v1/chat/message/cancel',
  'workspace/v1/chat/message/status',
  'workspace/v1/chat/message/send',
  'workspace/v1/chat/message/read',
  'workspace/v1/chat/messages/list',
  'workspace/v1/chat/conversations/manage',
  'workspace/v1/chat/media/get',
];

/**
 * A workspace of one's own as an operator makes it, with `pnpm cli seed`: a platform, its owner with a key and a
 * base plan, an add-on to sell, a sandbox channel with one approved template (a WhatsApp channel's come from Meta),
 * and no contact, conversation, message, automation, broadcast or ticket.
 */
function ownWorkspace(tag: string) {
  return {
    platforms: [{ ref: 'own', name: 'Own Co', domain: `own-${tag}.example.com` }],
    users: [
      {
        ref: 'owner',
        platform: 'own',
        email: `owner@own-${tag}.example.com`,
        name: 'Own Owner',
        role: 'owner',
        platformAccess: true,
        permissions: ['platform:view', 'platform:edit', 'platform:manage', 'settings:api'],
        apiKey: true,
      },
    ],
    channels: [{ ref: 'main', platform: 'own', name: 'Own Main', phone: '15557770000', users: ['owner'] }],
    templates: [
      {
        channel: 'main',
        name: 'shipping_notice',
        category: 'UTILITY',
        language: 'en_US',
        status: 'approved',
        body: 'Hi {{1}}, your order {{2}} is on its way.',
      },
    ],
    plans: [
      { ref: 'team', platform: 'own', name: 'Team', itemType: 'plan', prices: { monthly: 49 } },
      { ref: 'seats', platform: 'own', name: 'Extra seats', itemType: 'addon', prices: { monthly: 9.5 } },
    ],
    subscriptions: [{ user: 'owner', plan: 'team' }],
  } satisfies SeedFile;
}

/**
 * Issue #38: the collection against a workspace of one's own, not the demo, only baseUrl and apiKey set. Every
 * request passes: each takes the record it needs from a request before it (contacts/manage's Katherine,
 * sandbox/receive's customer message, chat/templates/list's template, tickets/manage's ticket, users/list's
 * subscriber) or makes it in its pre-request script (a paused automation, a throwaway broadcast, a scheduled send, a
 * customer's photo). Before, 13 requests failed here: their examples named the demo's records.
 */
describe('the Postman collection, run by newman against a fresh workspace without demo data', () => {
  let dir: string;
  let fresh: { baseUrl: string; apiKey: string };

  test.beforeAll(async ({ server }) => {
    dir = mkdtempSync(path.join(tmpdir(), 'switchboard-newman-fresh-'));
    const seedFile = path.join(dir, 'own.json');
    writeFileSync(seedFile, JSON.stringify(ownWorkspace(randomBytes(4).toString('hex'))));
    const seeded = await runCli(['seed', seedFile], { DATABASE_URL: server.databaseUrl });
    expect(seeded.code, seeded.stderr).toBe(0);
    const ids = JSON.parse(seeded.stdout) as SeedResult;
    fresh = { baseUrl: server.baseUrl, apiKey: ids.users!.owner!.apiKey! };
    await writeApiFiles(dir, { serverUrl: server.baseUrl });
  });
  test.afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test(
    'every request passes with only baseUrl and apiKey set, those once needing the demo’s records included',
    async ({ server }) => {
      const { code, output, run } = await newman(dir, filledEnvironment(dir, fresh));
      expect(failures(run), output).toEqual([]);
      const routes = onePerItem(run)
        .map(({ request }) => `${request.method} /${request.url.path.join('/')}`)
        .filter((route) => route.includes('/api/'));
      expect(routes.sort()).toEqual(collectionRoutes().sort());
      for (const route of ONCE_DEMO_ONLY)
        expect(routes.filter((each) => each.endsWith(`/api/${route}`))).toHaveLength(
          collectionRoutes().filter((each) => each.endsWith(`/api/${route}`)).length,
        );
      expect(run.stats.assertions.total).toBe(routes.length * 3);
      expect(code).toBe(0);
      // chat/message/read marked read the messages sandbox/receive played: only the photo chat/media/get's
      // pre-request script played after it is unread.
      const inbox = await server.client(fresh.apiKey).workspace.chat.conversations.list({});
      expect(inbox.data.find((conversation) => conversation.phone === '15550000001')).toMatchObject({
        unreadCount: 1,
        lastMessage: expect.objectContaining({ direction: 'inbound', type: 'image' }),
      });
    },
    SLOW_TIMEOUT_MS,
  );
});
