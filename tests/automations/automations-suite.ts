import { randomUUID } from 'node:crypto';
import type { AutomationAction, AutomationCondition } from '@switchboard/contract';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { tenantSeed } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../helpers/receivers.js';
import { automation } from './automations-fixture.js';

/**
 * The setup the automations suites share, registered in the calling describe: a server with a webhook receiver
 * subscribed to automation.run.completed, the Acme tenant with labels X, Y and doomed and several writers' keys, and
 * each test's automations deleted after it (so the next test's events meet only its own).
 */
export function automationsSuite() {
  const secret = newWebhookSecret();
  let server: TestServer;
  let hooks: WebhookReceiver;
  /** Keys of several users of the main channel, taken in turn: the suite writes more than one user's api_write rate. */
  let keys: string[];
  let turn = 0;
  let channelId: string;
  let labels: Record<string, string>;
  let phoneSerial = 0;
  /** This test's automations: deleted after it, so the next test's events meet only its own. */
  let created: string[] = [];

  const client = () => server.client(keys[turn++ % keys.length]!).workspace;
  const nextPhone = () => `1555${String(Date.now()).slice(-5)}${String(++phoneSerial).padStart(2, '0')}`;
  const create = async (
    trigger: Parameters<typeof automation>[0],
    actions: AutomationAction[],
    conditions: AutomationCondition[] = [],
  ) => {
    const { data } = await client().automations.manage(automation(trigger, actions, conditions));
    created.push(data.id);
    return data;
  };
  const runsOf = async (automationId: string) => (await client().automations.runs({ automationId, limit: 200 })).data;
  const automationById = async (id: string) => (await client().automations.list()).data.find((a) => a.id === id)!;
  const contactOf = (phone: string) => client().contacts.get({ phone });
  /** The automation's one run failed at its second step, after a first add_label that stays done. */
  const expectFailedAtSecondStep = async (automationId: string, type: string, error: RegExp) => {
    const [run] = await runsOf(automationId);
    expect(run).toMatchObject({
      outcome: 'failed',
      steps: [
        { type: 'add_label', outcome: 'succeeded' },
        { type, outcome: 'failed', error: expect.stringMatching(error) },
      ],
    });
  };

  beforeAll(async () => {
    hooks = await startWebhookReceiver(secret);
    server = await startTestServer({ ALLOW_HTTP_WEBHOOKS: 'true', DELIVERY_RETRY_SCHEDULE: '1' });
    const file = tenantSeed('Acme');
    file.platforms![0]!.webhooks = [{ url: hooks.url, secret, events: ['automation.run.completed'] }];
    file.labels!.push(
      { channel: 'main', name: 'X' },
      { channel: 'main', name: 'Y' },
      { channel: 'main', name: 'doomed' },
    );
    const extra = Array.from({ length: 6 }, (_, i) => `writer${i}`);
    for (const ref of extra)
      file.users!.push({ ref, platform: 'p', email: `${ref}@${randomUUID()}.example.com`, name: ref, apiKey: true });
    file.channels![0]!.users!.push(...extra);
    const ids = await server.seed(file);
    keys = ['member', ...extra].map((ref) => ids.users![ref]!.apiKey!);
    channelId = ids.channels!.main!;
    labels = Object.fromEntries((await client().labels.list()).data.map((label) => [label.name, label.id]));
  });
  afterEach(async () => {
    for (const automationId of created) await client().automations.manage({ action: 'delete', automationId });
    created = [];
  });
  afterAll(async () => {
    await server?.close();
    await hooks?.close();
  });

  return {
    get server() {
      return server;
    },
    get hooks() {
      return hooks;
    },
    get channelId() {
      return channelId;
    },
    get labels() {
      return labels;
    },
    client,
    nextPhone,
    create,
    runsOf,
    automationById,
    contactOf,
    expectFailedAtSecondStep,
    /** An automation the test deleted itself. */
    forget: (automationId: string) => {
      created = created.filter((id) => id !== automationId);
    },
  };
}
