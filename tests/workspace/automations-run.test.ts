import { randomUUID } from 'node:crypto';
import type { AutomationAction, AutomationCondition } from '@switchboard/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TRIGGER_QUEUE } from '../../apps/server/src/kit/triggers.js';
import { sql } from '../helpers/database.js';
import { tenantSeed } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../platform/receivers.js';
import { automation, receiveText } from './automations-fixture.js';

/**
 * Issue #25: automations run on their triggers, once per (automation, event), check their conditions, act in order
 * and stop at the first failure, record each run and announce it; what they do never triggers automations.
 */
describe('automations run', () => {
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

  it('message.received: matching text runs the actions, counts the run, moves lastRunAt and announces it', async () => {
    const rule = await create(
      { event: 'message.received' },
      [{ type: 'add_label', labelId: labels.X! }],
      [{ field: 'text', operator: 'contains', value: 'HOURS' }],
    );
    const phone = nextPhone();
    const { msgid, contactId } = await receiveText(server, channelId, phone, 'What are your opening hours?');
    const other = await receiveText(server, channelId, phone, 'thanks');
    await server.untilIdle();

    const runs = await runsOf(rule.id);
    expect(runs).toEqual([
      {
        id: expect.any(String),
        automationId: rule.id,
        event: 'message.received',
        eventId: other.msgid,
        contactId,
        outcome: 'skipped',
        steps: [],
        createdAt: expect.stringMatching(/Z$/),
      },
      {
        id: expect.any(String),
        automationId: rule.id,
        event: 'message.received',
        eventId: msgid,
        contactId,
        outcome: 'succeeded',
        steps: [{ type: 'add_label', outcome: 'succeeded' }],
        createdAt: expect.stringMatching(/Z$/),
      },
    ]);
    const after = await automationById(rule.id);
    expect(after.executionCount).toBe(1);
    expect(after.lastRunAt).toBe(runs[1]!.createdAt);
    expect((await contactOf(phone)).data.labels.map((l) => l.name)).toEqual(['X']);

    await expect
      .poll(
        () =>
          hooks.received.filter(
            (hit) => (hit.verified?.data as { run?: { automationId: string } })?.run?.automationId === rule.id,
          ).length,
      )
      .toBe(2);
    const announced = hooks.received
      .map((hit) => hit.verified)
      .find((event) => (event?.data as { run?: { id: string } }).run?.id === runs[1]!.id);
    expect(announced).toEqual({
      type: 'automation.run.completed',
      timestamp: runs[1]!.createdAt,
      data: { channelId, run: runs[1] },
    });
  });

  it('contact.created runs for a contact created by the API, an inbound message and a seed file', async () => {
    const rule = await create({ event: 'contact.created' }, [
      { type: 'set_custom_field', name: 'Plan', value: 'free' },
    ]);
    const byApi = nextPhone();
    await client().contacts.manage({ phone: byApi, name: 'Api Made' });
    await client().contacts.manage({ phone: byApi, name: 'Api Renamed' });
    const byMessage = nextPhone();
    await receiveText(server, channelId, byMessage, 'hello');
    await receiveText(server, channelId, byMessage, 'hello again');
    const bySeed = nextPhone();
    await server.seed({ contacts: [{ channel: channelId, name: 'Seeded', phone: bySeed }] });
    await server.untilIdle();
    const runs = await runsOf(rule.id);
    const made = [byApi, byMessage, bySeed].map(async (phone) => (await contactOf(phone)).data);
    const contacts = await Promise.all(made);
    expect(runs.map((run) => [run.event, run.eventId, run.contactId, run.outcome]).sort()).toEqual(
      contacts.map((c) => ['contact.created', c.id, c.id, 'succeeded']).sort(),
    );
    expect(contacts.map((c) => c.customFields.Plan)).toEqual(['free', 'free', 'free']);
    expect((await automationById(rule.id)).executionCount).toBe(3);
  });

  it('contact.labeled with a labelId runs for that label only, once per label added', async () => {
    const rule = await create({ event: 'contact.labeled', labelId: labels.vip! }, [
      { type: 'set_custom_field', name: 'Age', value: 50 },
    ]);
    const phone = nextPhone();
    await client().contacts.manage({ phone, name: 'Labeled', addLabels: ['new'] });
    await client().contacts.manage({ phone, addLabels: ['vip'] });
    await client().contacts.manage({ phone, addLabels: ['vip'] });
    await server.untilIdle();
    const contact = (await contactOf(phone)).data;
    const runs = await runsOf(rule.id);
    expect(runs.map((run) => [run.event, run.contactId, run.outcome])).toEqual([
      ['contact.labeled', contact.id, 'succeeded'],
    ]);
    expect(contact.customFields.Age).toBe(50);
  });

  it('checks every condition and operator; records skipped runs without counting them', async () => {
    const phone = nextPhone();
    await client().contacts.manage({ phone, name: 'Cond', addLabels: ['vip'], customFields: { Plan: 'pro' } });
    await receiveText(server, channelId, phone, 'earlier message');
    await server.untilIdle();
    const cases: [AutomationCondition, boolean][] = [
      [{ field: 'text', operator: 'contains', value: 'ORDER' }, true],
      [{ field: 'text', operator: 'contains', value: 'refund' }, false],
      [{ field: 'text', operator: 'equals', value: 'where is my order?' }, true],
      [{ field: 'text', operator: 'equals', value: 'where is my order' }, false],
      [{ field: 'text', operator: 'startsWith', value: 'WHERE is' }, true],
      [{ field: 'text', operator: 'startsWith', value: 'order' }, false],
      [{ field: 'label', operator: 'has', value: labels.vip! }, true],
      [{ field: 'label', operator: 'has', value: labels.new! }, false],
      [{ field: 'label', operator: 'hasNot', value: labels.new! }, true],
      [{ field: 'label', operator: 'hasNot', value: labels.vip! }, false],
      [{ field: 'customField', name: 'Plan', operator: 'equals', value: 'pro' }, true],
      [{ field: 'customField', name: 'Plan', operator: 'equals', value: 'free' }, false],
      [{ field: 'customField', name: 'Plan', operator: 'isSet' }, true],
      [{ field: 'customField', name: 'Age', operator: 'isSet' }, false],
      [{ field: 'customField', name: 'Age', operator: 'isNotSet' }, true],
      [{ field: 'customField', name: 'Plan', operator: 'isNotSet' }, false],
      [{ field: 'firstMessage', operator: 'is', value: false }, true],
      [{ field: 'firstMessage', operator: 'is', value: true }, false],
    ];
    const rules = [];
    for (const [condition] of cases)
      rules.push(await create({ event: 'message.received' }, [{ type: 'add_label', labelId: labels.Y! }], [condition]));
    const both = await create(
      { event: 'message.received' },
      [{ type: 'add_label', labelId: labels.Y! }],
      [
        { field: 'text', operator: 'contains', value: 'order' },
        { field: 'label', operator: 'has', value: labels.new! },
      ],
    );
    const { msgid } = await receiveText(server, channelId, phone, 'Where is my order?');
    await server.untilIdle();
    for (const [index, [condition, held]] of cases.entries()) {
      const runs = (await runsOf(rules[index]!.id)).filter((run) => run.eventId === msgid);
      expect({ condition, outcome: runs.map((run) => run.outcome) }).toEqual({
        condition,
        outcome: [held ? 'succeeded' : 'skipped'],
      });
      const counted = await automationById(rules[index]!.id);
      expect([counted.executionCount, counted.lastRunAt === null]).toEqual(held ? [1, false] : [0, true]);
    }
    expect((await runsOf(both.id)).map((run) => run.outcome)).toEqual(['skipped']);

    const newcomer = nextPhone();
    const first = await create(
      { event: 'message.received' },
      [{ type: 'add_label', labelId: labels.Y! }],
      [{ field: 'firstMessage', operator: 'is', value: true }],
    );
    const opening = await receiveText(server, channelId, newcomer, 'hi');
    await receiveText(server, channelId, newcomer, 'hi again');
    await server.untilIdle();
    expect((await runsOf(first.id)).map((run) => [run.eventId === opening.msgid, run.outcome]).sort()).toEqual([
      [false, 'skipped'],
      [true, 'succeeded'],
    ]);
  });

  it('does each action in order with placeholders; a template send is a recorded message', async () => {
    const phone = nextPhone();
    await client().contacts.manage({ phone, name: 'Ada Actions', addLabels: ['new'], customFields: { Plan: 'pro' } });
    const rule = await create({ event: 'message.received' }, [
      { type: 'add_label', labelId: labels.vip! },
      { type: 'remove_label', labelId: labels.new! },
      { type: 'set_custom_field', name: 'Age', value: 36 },
      {
        type: 'send_template',
        templateName: 'order_update',
        variables: ['{{contact.name}}', '{{customField.Plan}}-{{customField.Age}}'],
      },
    ]);
    await receiveText(server, channelId, phone, 'go');
    await server.untilIdle();
    const [run] = await runsOf(rule.id);
    expect(run!.outcome).toBe('succeeded');
    expect(run!.steps.map((step) => [step.type, step.outcome])).toEqual([
      ['add_label', 'succeeded'],
      ['remove_label', 'succeeded'],
      ['set_custom_field', 'succeeded'],
      ['send_template', 'succeeded'],
    ]);
    const contact = (await contactOf(phone)).data;
    expect(contact.labels.map((l) => l.name)).toEqual(['vip']);
    expect(contact.customFields).toEqual({ Plan: 'pro', Age: 36 });
    const msgid = run!.steps[3]!.msgid!;
    expect((await client().chat.message.status({ msgid })).data).toMatchObject({
      msgid,
      direction: 'outbound',
      type: 'template',
    });
    const [sent] = await sql<{ variables: string[]; to: string }>(
      server.databaseUrl,
      'select variables, "to" from messages where msgid = $1',
      [msgid],
    );
    expect(sent).toEqual({ variables: ['Ada Actions', 'pro-36'], to: phone });
  });

  it('replies with send_text: a session message with placeholders, listed with the automation’s id', async () => {
    const phone = nextPhone();
    await client().contacts.manage({ phone, name: 'Grace Text', customFields: { Plan: 'pro' } });
    const rule = await create(
      { event: 'message.received' },
      [{ type: 'send_text', text: 'Hi {{contact.name}} ({{contact.phone}}), plan {{customField.Plan}}.' }],
      [{ field: 'text', operator: 'contains', value: 'hours' }],
    );
    await receiveText(server, channelId, phone, 'Opening hours?');
    await server.untilIdle();
    const [run] = await runsOf(rule.id);
    expect(run).toMatchObject({ outcome: 'succeeded', steps: [{ type: 'send_text', outcome: 'succeeded' }] });
    const msgid = run!.steps[0]!.msgid!;
    const listed = await client().chat.messages.list({ phone });
    const reply = listed.data.find((message) => message.msgid === msgid);
    expect(reply).toMatchObject({
      direction: 'outbound',
      type: 'text',
      automationId: rule.id,
      text: `Hi Grace Text (${phone}), plan pro.`,
    });
    expect(listed.data.filter((message) => message.direction === 'outbound')).toHaveLength(1);
  });

  it('a send_text outside the 24-hour window fails the run with the window’s error', async () => {
    const rule = await create({ event: 'contact.created' }, [
      { type: 'add_label', labelId: labels.X! },
      { type: 'send_text', text: 'Welcome!' },
      { type: 'add_label', labelId: labels.Y! },
    ]);
    const phone = nextPhone();
    await client().contacts.manage({ phone, name: 'Never Wrote' });
    await server.untilIdle();
    await expectFailedAtSecondStep(rule.id, 'send_text', /window/);
    expect((await contactOf(phone)).data.labels.map((l) => l.name)).toEqual(['X']);
  });

  it('stops at the first failing action: the run fails with its error, earlier steps stay done', async () => {
    const rule = await create({ event: 'message.received' }, [
      { type: 'add_label', labelId: labels.X! },
      { type: 'add_label', labelId: labels.doomed! },
      { type: 'set_custom_field', name: 'Age', value: 99 },
    ]);
    await client().labels.delete({ labelId: labels.doomed! });
    const phone = nextPhone();
    await receiveText(server, channelId, phone, 'hello');
    await server.untilIdle();
    await expectFailedAtSecondStep(rule.id, 'add_label', /label not found/);
    const contact = (await contactOf(phone)).data;
    expect(contact.labels.map((l) => l.name)).toEqual(['X']);
    expect(contact.customFields.Age).toBeUndefined();
    expect((await automationById(rule.id)).executionCount).toBe(1);
  });

  it('paused automations and automations created after the event leave no run; deleted ones keep theirs', async () => {
    const paused = await create({ event: 'message.received' }, [{ type: 'add_label', labelId: labels.X! }]);
    await client().automations.manage({ action: 'update', automationId: paused.id, status: 'paused' });
    const before = new Date(Date.now() - 60_000).toISOString();
    const late = await create({ event: 'contact.created' }, [{ type: 'add_label', labelId: labels.X! }]);
    const phone = nextPhone();
    const { contactId } = await receiveText(server, channelId, phone, 'hi');
    // The same contact's creation as an event committed a minute before the automation existed.
    await server.database.orm.em.fork().transactional((tx) =>
      server.jobs.enqueueTask(tx, TRIGGER_QUEUE, {
        event: 'contact.created',
        eventId: randomUUID(),
        channelId,
        contactId,
        at: before,
      }),
    );
    await server.untilIdle();
    expect(await runsOf(paused.id)).toEqual([]);
    expect((await runsOf(late.id)).map((run) => run.contactId)).toEqual([contactId]);

    await client().automations.manage({ action: 'delete', automationId: late.id });
    created = created.filter((id) => id !== late.id);
    expect((await runsOf(late.id)).map((run) => run.contactId)).toEqual([contactId]);
  });

  it('never chains: its own labels and messages trigger nothing, so rules cannot loop', async () => {
    const onAnyLabel = await create({ event: 'contact.labeled' }, [{ type: 'add_label', labelId: labels.Y! }]);
    const onLabelX = await create({ event: 'contact.labeled', labelId: labels.X! }, [
      { type: 'add_label', labelId: labels.X! },
    ]);
    const onMessage = await create({ event: 'message.received' }, [
      { type: 'send_text', text: 'pong' },
      { type: 'send_template', templateName: 'order_update', variables: ['{{contact.name}}', 'reply'] },
    ]);
    const phone = nextPhone();
    await client().contacts.manage({ phone, name: 'Loop', addLabels: ['X'] });
    await receiveText(server, channelId, phone, 'ping');
    await server.untilIdle();
    expect((await runsOf(onAnyLabel.id)).map((run) => run.outcome)).toEqual(['succeeded']);
    expect((await runsOf(onLabelX.id)).map((run) => run.outcome)).toEqual(['succeeded']);
    expect((await runsOf(onMessage.id)).map((run) => run.outcome)).toEqual(['succeeded']);
    expect((await contactOf(phone)).data.labels.map((l) => l.name).sort()).toEqual(['X', 'Y']);
    const sent = (await client().chat.messages.list({ phone })).data.filter((m) => m.direction === 'outbound');
    expect(sent.map((m) => m.automationId)).toEqual([onMessage.id, onMessage.id]);
  });

  it('runs each (automation, event) once when the same event is delivered twice at once', async () => {
    const rule = await create({ event: 'message.received' }, [
      { type: 'send_template', templateName: 'order_update', variables: ['a', 'b'] },
    ]);
    const phone = nextPhone();
    const { msgid, contactId } = await receiveText(server, channelId, phone, 'once');
    const event = {
      event: 'message.received',
      eventId: msgid,
      channelId,
      contactId,
      text: 'once',
      at: new Date().toISOString(),
    };
    await Promise.all(
      [1, 2, 3].map(() =>
        server.database.orm.em.fork().transactional((tx) => server.jobs.enqueueTask(tx, TRIGGER_QUEUE, event)),
      ),
    );
    await server.untilIdle();
    expect((await runsOf(rule.id)).map((run) => run.eventId)).toEqual([msgid]);
    expect((await automationById(rule.id)).executionCount).toBe(1);
    const sent = await sql(
      server.databaseUrl,
      `select msgid from messages where channel_id = $1 and "to" = $2 and direction = 'outbound'`,
      [channelId, phone],
    );
    expect(sent).toHaveLength(1);
  });

  it('lists runs of the channel newest first, paginated; another tenant sees none of them', async () => {
    const page = await client().automations.runs({ page: 1, limit: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.pagination).toMatchObject({ page: 1, limit: 2 });
    expect(page.pagination.total).toBeGreaterThan(10);
    const all = await client().automations.runs({ limit: 200 });
    const times = all.data.map((run) => run.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const other = await server.seed(tenantSeed('Globex'));
    const theirs = server.client(other.users!.member!.apiKey!).workspace;
    expect((await theirs.automations.runs()).data).toEqual([]);
    expect((await theirs.automations.runs({ automationId: all.data[0]!.automationId })).data).toEqual([]);
  });
});
