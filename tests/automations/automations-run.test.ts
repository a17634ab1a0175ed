import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TRIGGER_QUEUE, type TriggerEvent } from '../../apps/server/src/kit/triggers.js';
import { sql } from '../helpers/database.js';
import { tenantSeed } from '../helpers/fixtures.js';
import { receiveText } from './automations-fixture.js';
import { automationsSuite } from './automations-suite.js';

/**
 * Issue #25: automations run on their triggers, once per (automation, event), check their conditions, act in order
 * and stop at the first failure, record each run and announce it; what they do never triggers automations.
 */
describe('automations run', () => {
  const suite = automationsSuite();
  const { client, nextPhone, create, runsOf, automationById, contactOf } = suite;

  it('message.received: matching text runs the actions, counts the run, moves lastRunAt and announces it', async () => {
    const rule = await create(
      { event: 'message.received' },
      [{ type: 'add_label', labelId: suite.labels.X! }],
      [{ field: 'text', operator: 'contains', value: 'HOURS' }],
    );
    const phone = nextPhone();
    const { msgid, contactId } = await receiveText(
      suite.server,
      suite.channelId,
      phone,
      'What are your opening hours?',
    );
    const other = await receiveText(suite.server, suite.channelId, phone, 'thanks');
    await suite.server.untilIdle();

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
          suite.hooks.received.filter(
            (hit) => (hit.verified?.data as { run?: { automationId: string } })?.run?.automationId === rule.id,
          ).length,
      )
      .toBe(2);
    const announced = suite.hooks.received
      .map((hit) => hit.verified)
      .find((event) => (event?.data as { run?: { id: string } }).run?.id === runs[1]!.id);
    expect(announced).toEqual({
      type: 'automation.run.completed',
      timestamp: runs[1]!.createdAt,
      data: { channelId: suite.channelId, run: runs[1] },
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
    await receiveText(suite.server, suite.channelId, byMessage, 'hello');
    await receiveText(suite.server, suite.channelId, byMessage, 'hello again');
    const bySeed = nextPhone();
    await suite.server.seed({ contacts: [{ channel: suite.channelId, name: 'Seeded', phone: bySeed }] });
    await suite.server.untilIdle();
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
    const rule = await create({ event: 'contact.labeled', labelId: suite.labels.vip! }, [
      { type: 'set_custom_field', name: 'Age', value: 50 },
    ]);
    const phone = nextPhone();
    await client().contacts.manage({ phone, name: 'Labeled', addLabels: ['new'] });
    await client().contacts.manage({ phone, addLabels: ['vip'] });
    await client().contacts.manage({ phone, addLabels: ['vip'] });
    await suite.server.untilIdle();
    const contact = (await contactOf(phone)).data;
    const runs = await runsOf(rule.id);
    expect(runs.map((run) => [run.event, run.contactId, run.outcome])).toEqual([
      ['contact.labeled', contact.id, 'succeeded'],
    ]);
    expect(contact.customFields.Age).toBe(50);
  });

  it('paused automations and automations created after the event leave no run; deleted ones keep theirs', async () => {
    const paused = await create({ event: 'message.received' }, [{ type: 'add_label', labelId: suite.labels.X! }]);
    await client().automations.manage({ action: 'update', automationId: paused.id, status: 'paused' });
    const before = new Date(Date.now() - 60_000).toISOString();
    const late = await create({ event: 'contact.created' }, [{ type: 'add_label', labelId: suite.labels.X! }]);
    const phone = nextPhone();
    const { contactId } = await receiveText(suite.server, suite.channelId, phone, 'hi');
    // The same contact's creation as an event committed a minute before the automation existed.
    await suite.server.database.orm.em.fork().transactional((tx) =>
      suite.server.jobs.enqueueTask(tx, TRIGGER_QUEUE, {
        event: 'contact.created',
        eventId: randomUUID(),
        channelId: suite.channelId,
        contactId,
        at: before,
      }),
    );
    await suite.server.untilIdle();
    expect(await runsOf(paused.id)).toEqual([]);
    expect((await runsOf(late.id)).map((run) => run.contactId)).toEqual([contactId]);

    await client().automations.manage({ action: 'delete', automationId: late.id });
    suite.forget(late.id);
    expect((await runsOf(late.id)).map((run) => run.contactId)).toEqual([contactId]);
  });

  it('never chains: its own labels and messages trigger nothing, so rules cannot loop', async () => {
    const onAnyLabel = await create({ event: 'contact.labeled' }, [{ type: 'add_label', labelId: suite.labels.Y! }]);
    const onLabelX = await create({ event: 'contact.labeled', labelId: suite.labels.X! }, [
      { type: 'add_label', labelId: suite.labels.X! },
    ]);
    const onMessage = await create({ event: 'message.received' }, [
      { type: 'send_text', text: 'pong' },
      { type: 'send_template', templateName: 'order_update', variables: ['{{contact.name}}', 'reply'] },
    ]);
    const phone = nextPhone();
    await client().contacts.manage({ phone, name: 'Loop', addLabels: ['X'] });
    await receiveText(suite.server, suite.channelId, phone, 'ping');
    await suite.server.untilIdle();
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
    const { msgid, contactId } = await receiveText(suite.server, suite.channelId, phone, 'once');
    const event: TriggerEvent = {
      event: 'message.received',
      eventId: msgid,
      channelId: suite.channelId,
      contactId,
      text: 'once',
      at: new Date().toISOString(),
    };
    await Promise.all(
      [1, 2, 3].map(() =>
        suite.server.database.orm.em
          .fork()
          .transactional((tx) => suite.server.jobs.enqueueTask(tx, TRIGGER_QUEUE, event)),
      ),
    );
    await suite.server.untilIdle();
    expect((await runsOf(rule.id)).map((run) => run.eventId)).toEqual([msgid]);
    expect((await automationById(rule.id)).executionCount).toBe(1);
    const sent = await sql(
      suite.server.databaseUrl,
      `select msgid from messages where channel_id = $1 and "to" = $2 and direction = 'outbound'`,
      [suite.channelId, phone],
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
    const other = await suite.server.seed(tenantSeed('Globex'));
    const theirs = suite.server.client(other.users!.member!.apiKey!).workspace;
    expect((await theirs.automations.runs()).data).toEqual([]);
    expect((await theirs.automations.runs({ automationId: all.data[0]!.automationId })).data).toEqual([]);
  });
});
