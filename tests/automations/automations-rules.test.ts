import type { AutomationCondition } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { sql } from '../helpers/database.js';
import { receiveText } from './automations-fixture.js';
import { automationsSuite } from './automations-suite.js';

/** Issue #25: each condition and operator, each action with placeholders, and a failing action stopping a run. */
describe('automation conditions and actions', () => {
  const suite = automationsSuite();
  const { client, nextPhone, create, runsOf, automationById, contactOf, expectFailedAtSecondStep } = suite;

  it('checks every condition and operator; records skipped runs without counting them', async () => {
    const phone = nextPhone();
    await client().contacts.manage({ phone, name: 'Cond', addLabels: ['vip'], customFields: { Plan: 'pro' } });
    await receiveText(suite.server, suite.channelId, phone, 'earlier message');
    await suite.server.untilIdle();
    const cases: [AutomationCondition, boolean][] = [
      [{ field: 'text', operator: 'contains', value: 'ORDER' }, true],
      [{ field: 'text', operator: 'contains', value: 'refund' }, false],
      [{ field: 'text', operator: 'equals', value: 'where is my order?' }, true],
      [{ field: 'text', operator: 'equals', value: 'where is my order' }, false],
      [{ field: 'text', operator: 'startsWith', value: 'WHERE is' }, true],
      [{ field: 'text', operator: 'startsWith', value: 'order' }, false],
      [{ field: 'label', operator: 'has', value: suite.labels.vip! }, true],
      [{ field: 'label', operator: 'has', value: suite.labels.new! }, false],
      [{ field: 'label', operator: 'hasNot', value: suite.labels.new! }, true],
      [{ field: 'label', operator: 'hasNot', value: suite.labels.vip! }, false],
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
      rules.push(
        await create({ event: 'message.received' }, [{ type: 'add_label', labelId: suite.labels.Y! }], [condition]),
      );
    const both = await create(
      { event: 'message.received' },
      [{ type: 'add_label', labelId: suite.labels.Y! }],
      [
        { field: 'text', operator: 'contains', value: 'order' },
        { field: 'label', operator: 'has', value: suite.labels.new! },
      ],
    );
    const { msgid } = await receiveText(suite.server, suite.channelId, phone, 'Where is my order?');
    await suite.server.untilIdle();
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
      [{ type: 'add_label', labelId: suite.labels.Y! }],
      [{ field: 'firstMessage', operator: 'is', value: true }],
    );
    const opening = await receiveText(suite.server, suite.channelId, newcomer, 'hi');
    await receiveText(suite.server, suite.channelId, newcomer, 'hi again');
    await suite.server.untilIdle();
    expect((await runsOf(first.id)).map((run) => [run.eventId === opening.msgid, run.outcome]).sort()).toEqual([
      [false, 'skipped'],
      [true, 'succeeded'],
    ]);
  });

  it('does each action in order with placeholders; a template send is a recorded message', async () => {
    const phone = nextPhone();
    await client().contacts.manage({ phone, name: 'Ada Actions', addLabels: ['new'], customFields: { Plan: 'pro' } });
    const rule = await create({ event: 'message.received' }, [
      { type: 'add_label', labelId: suite.labels.vip! },
      { type: 'remove_label', labelId: suite.labels.new! },
      { type: 'set_custom_field', name: 'Age', value: 36 },
      {
        type: 'send_template',
        templateName: 'order_update',
        variables: ['{{contact.name}}', '{{customField.Plan}}-{{customField.Age}}'],
      },
    ]);
    await receiveText(suite.server, suite.channelId, phone, 'go');
    await suite.server.untilIdle();
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
      suite.server.databaseUrl,
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
    await receiveText(suite.server, suite.channelId, phone, 'Opening hours?');
    await suite.server.untilIdle();
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
      { type: 'add_label', labelId: suite.labels.X! },
      { type: 'send_text', text: 'Welcome!' },
      { type: 'add_label', labelId: suite.labels.Y! },
    ]);
    const phone = nextPhone();
    await client().contacts.manage({ phone, name: 'Never Wrote' });
    await suite.server.untilIdle();
    await expectFailedAtSecondStep(rule.id, 'send_text', /window/);
    expect((await contactOf(phone)).data.labels.map((l) => l.name)).toEqual(['X']);
  });

  it('stops at the first failing action: the run fails with its error, earlier steps stay done', async () => {
    const rule = await create({ event: 'message.received' }, [
      { type: 'add_label', labelId: suite.labels.X! },
      { type: 'add_label', labelId: suite.labels.doomed! },
      { type: 'set_custom_field', name: 'Age', value: 99 },
    ]);
    await client().labels.delete({ labelId: suite.labels.doomed! });
    const phone = nextPhone();
    await receiveText(suite.server, suite.channelId, phone, 'hello');
    await suite.server.untilIdle();
    await expectFailedAtSecondStep(rule.id, 'add_label', /label not found/);
    const contact = (await contactOf(phone)).data;
    expect(contact.labels.map((l) => l.name)).toEqual(['X']);
    expect(contact.customFields.Age).toBeUndefined();
    expect((await automationById(rule.id)).executionCount).toBe(1);
  });
});
