import { demoSeed } from '@switchboard/server';
import { describe, expect } from 'vitest';
import { receiveSandboxMessage } from '../../apps/server/src/modules/sandbox/index.js';
import { test as base } from '../helpers/test.js';
import { receiveText } from './automations-fixture.js';

/** The demo data, loaded once: the README's runs play on it. */
const test = base.extend('demo', { scope: 'file' }, async ({ server }) => {
  const seeded = await server.seed(demoSeed);
  return { key: seeded.users!.owner!.apiKey!, channelId: seeded.channels!.support! };
});

/** The README's first run: a customer asks the demo's Support channel about hours and "Opening hours" answers. */
describe('the demo automation', () => {
  test('answers a question about hours with a session message, shown in automations/runs', async ({ server, demo }) => {
    const client = server.client(demo.key).workspace;
    const { channelId } = demo;
    const [hours] = (await client.automations.list({ channelId })).data.filter((a) => a.name === 'Opening hours');
    expect(hours).toMatchObject({ status: 'active', trigger: { event: 'message.received' }, executionCount: 0 });

    const { msgid, contactId } = await receiveText(server, channelId, '15550000009', 'What are your hours?');
    await server.untilIdle();
    // One run per active automation listening to messages (README: limit 3); only "Opening hours" acted.
    const { data: runs } = await client.automations.runs({ channelId, limit: 3 });
    expect(runs.map((run) => run.outcome)).toEqual(['skipped', 'skipped', 'succeeded']);
    expect(runs.slice(2)).toEqual([
      {
        id: expect.any(String),
        automationId: hours!.id,
        event: 'message.received',
        eventId: msgid,
        contactId,
        outcome: 'succeeded',
        // The reply went through the send pipeline, which names a message before the provider has it.
        steps: [{ type: 'send_text', outcome: 'succeeded', msgid: expect.stringMatching(/^sbm\./) }],
        createdAt: expect.any(String),
      },
    ]);
    const { data: messages } = await client.chat.messages.list({ channelId, phone: '15550000009' });
    expect(messages.map((m) => [m.direction, m.automationId])).toEqual([
      ['outbound', hours!.id],
      ['inbound', null],
    ]);
  });
});

/** The README's second run: "order" gets two reply buttons; tapping "Track order" runs the sibling automation. */
describe('the demo automations Order help and Track order', () => {
  test('answer "order" with buttons, and a tap on Track order with a reaction and the status', async ({
    server,
    demo,
  }) => {
    const client = server.client(demo.key).workspace;
    const { channelId } = demo;
    const phone = '15550000010';
    const { data: automations } = await client.automations.list({ channelId });
    const named = (name: string) => automations.find((a) => a.name === name)!;

    const asked = await receiveText(server, channelId, phone, 'Order');
    await server.untilIdle();
    const [help] = (await client.automations.runs({ channelId, automationId: named('Order help').id })).data;
    expect(help).toMatchObject({ eventId: asked.msgid, outcome: 'succeeded', steps: [{ type: 'send_interactive' }] });
    const buttonsMsgid = help!.steps[0]!.msgid!;
    const [buttons] = (await client.chat.messages.list({ channelId, phone, limit: 1 })).data;
    expect(buttons).toMatchObject({
      msgid: buttonsMsgid,
      type: 'interactive',
      status: expect.stringMatching(/^(accepted|sent|delivered)$/),
      text: `Hi ${phone}! How can we help with your order?`,
      interactive: { kind: 'buttons', buttons: [{ id: 'track_order', title: 'Track order' }, { id: 'talk_to_us' }] },
    });

    const { msgid: tap } = await receiveSandboxMessage({ em: server.database.orm.em.fork() }, server.jobs, {
      channelId,
      from: phone,
      buttonReply: 'track_order',
      replyTo: buttonsMsgid,
    });
    await server.untilIdle();
    const [track] = (await client.automations.runs({ channelId, automationId: named('Track order').id })).data;
    expect(track).toMatchObject({
      eventId: tap,
      outcome: 'succeeded',
      steps: [{ type: 'send_reaction' }, { type: 'send_text' }],
    });
    // The tap did not make Order help act again: its text is the button's title, not "order".
    const helpRuns = (await client.automations.runs({ channelId, automationId: named('Order help').id })).data;
    expect(helpRuns.find((run) => run.eventId === tap)?.outcome).toBe('skipped');
    const { data: history } = await client.chat.messages.list({ channelId, phone, limit: 3 });
    const byMsgid = new Map(history.map((message) => [message.msgid, message]));
    expect(byMsgid.get(tap)).toMatchObject({
      direction: 'inbound',
      type: 'interactive',
      text: 'Track order',
      replyTo: buttonsMsgid,
      interactive: { kind: 'button_reply', id: 'track_order', title: 'Track order' },
    });
    expect(byMsgid.get(track!.steps[0]!.msgid!)).toMatchObject({
      type: 'reaction',
      reaction: { msgid: tap, emoji: '👍' },
    });
    expect(byMsgid.get(track!.steps[1]!.msgid!)?.text).toMatch(/has shipped/);
    // The sandbox takes the typing indicator with a read receipt, as WhatsApp does.
    expect((await client.chat.message.read({ msgid: tap, typing: true })).data).toEqual({
      msgid: tap,
      status: 'read',
      markedRead: 2,
    });
    // As on WhatsApp, the sandbox reports a reaction `sent` only: once the reply sent with it is delivered, it is
    // still `sent`.
    const statusOf = async (msgid: string) => (await client.chat.message.status({ msgid })).data.status;
    await expect.poll(() => statusOf(track!.steps[1]!.msgid!), { timeout: 20_000 }).toBe('delivered');
    expect(await statusOf(track!.steps[0]!.msgid!)).toBe('sent');
  });
});
