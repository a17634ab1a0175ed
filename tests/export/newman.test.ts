import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SwitchboardEvent } from '@switchboard/client';
import { WEBHOOK_EVENTS } from '@switchboard/contract';
import { API_FILES, writeApiFiles, type PostmanEnvironment } from '@switchboard/openapi';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { REPO_ROOT } from '../helpers/processes.js';
import { freePort } from '../helpers/ports.js';
import { test } from '../helpers/test.js';
import { run, SLOW_TIMEOUT_MS } from '../sdk/commands.js';
import { contractRoutes } from './routes.js';
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
        expect(routes.sort()).toEqual(
          contractRoutes()
            .flatMap((route) => {
              const more = route.method === 'POST' ? Object.keys(route.metadata.moreExamples ?? {}).length : 0;
              return Array.from({ length: 1 + more }, () => `${route.method} ${route.path}`);
            })
            .sort(),
        );
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

/**
 * What a request's example needs that a workspace of one's own does not have until someone makes it, and that no
 * API call makes: the demo's records by their ids (Ada's conversation, its msgids), an approved template, a customer's
 * message, a plan with a subscriber. Each of these requests passes against the demo (above) and fails here.
 */
const NEEDS_DEMO_RECORDS: Record<string, string> = {
  '/api/platform/v1/addon/manage': 'a user with an active plan, and an add-on (no API creates plans)',
  '/api/platform/v1/tickets/get': 'a ticket before tickets/manage creates one',
  '/api/workspace/v1/automations/manage': 'an automation to update',
  '/api/workspace/v1/broadcasts/manage': 'the approved template order_update',
  '/api/workspace/v1/broadcasts/recipients': 'the broadcast broadcasts/manage creates',
  '/api/workspace/v1/chat/templates/send': 'the approved template order_update and Ada',
  '/api/workspace/v1/chat/message/cancel': 'the approved template order_update, to schedule a send',
  '/api/workspace/v1/chat/message/status': 'the demo’s message wamid.DEMO0001',
  '/api/workspace/v1/chat/message/send': 'Ada’s open conversation and her message wamid.DEMO0002',
  '/api/workspace/v1/chat/message/read': 'the demo customer’s message wamid.DEMO0002',
  '/api/workspace/v1/chat/messages/list': 'Ada’s conversation',
  '/api/workspace/v1/chat/conversations/manage': 'Ada’s conversation',
  '/api/workspace/v1/chat/media/get': 'the demo customer’s photo wamid.DEMO0003',
};

/**
 * Issue #38: the collection against a workspace of one's own, not the demo: a platform, a channel and an owner's key
 * made for the test and nothing else, only baseUrl and apiKey set. A request whose example names a contact takes the
 * one a request before it made: contacts/manage creates Katherine (and the label it adds), contacts/get and
 * chat/notes/manage and /list use her. Before, chat/notes/list named the demo's Grace and answered 404
 * `contact_not_found`, and contacts/manage was a 400 for its label.
 */
describe('the Postman collection, run by newman against a fresh workspace without demo data', () => {
  let dir: string;
  let fresh: { baseUrl: string; apiKey: string };

  test.beforeAll(async ({ server }) => {
    const tag = randomBytes(4).toString('hex');
    const ids = await server.seed({
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
    });
    fresh = { baseUrl: server.baseUrl, apiKey: ids.users!.owner!.apiKey! };
    dir = mkdtempSync(path.join(tmpdir(), 'switchboard-newman-fresh-'));
    await writeApiFiles(dir, { serverUrl: server.baseUrl });
  });
  test.afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test(
    'every request passes with only baseUrl and apiKey set, but those whose examples need the demo’s records',
    async () => {
      const { output, run } = await newman(dir, filledEnvironment(dir, fresh));
      const failing = new Set(
        run.executions
          .filter((execution) => execution.assertions?.some((assertion) => assertion.error))
          .map((execution) => `/${execution.request.url.path.join('/')}`),
      );
      expect([...failing].sort(), output).toEqual(Object.keys(NEEDS_DEMO_RECORDS).sort());
      const executed = (route: string) =>
        onePerItem(run).filter((execution) => `/${execution.request.url.path.join('/')}` === route);
      for (const route of ['contacts/manage', 'contacts/get', 'chat/notes/manage', 'chat/notes/list'])
        expect(
          executed(`/api/workspace/v1/${route}`)
            .map((execution) => execution.request.method)
            .sort(),
        ).toEqual(['GET', 'POST']);
    },
    SLOW_TIMEOUT_MS,
  );
});
