import { demoSeed } from '@switchboard/server';
import { describe, expect } from 'vitest';
import { test } from '../helpers/test.js';
import { receiveText } from './automations-fixture.js';

/** The README's first run: a customer asks the demo's Support channel about hours and "Opening hours" answers. */
describe('the demo automation', () => {
  test('answers a question about hours with a session message, shown in automations/runs', async ({ server }) => {
    const seeded = await server.seed(demoSeed);
    const client = server.client(seeded.users!.owner!.apiKey!).workspace;
    const channelId = seeded.channels!.support!;
    const [hours] = (await client.automations.list({ channelId })).data.filter((a) => a.name === 'Opening hours');
    expect(hours).toMatchObject({ status: 'active', trigger: { event: 'message.received' }, executionCount: 0 });

    const { msgid, contactId } = await receiveText(server, channelId, '15550000009', 'What are your hours?');
    await server.untilIdle();
    const { data: runs } = await client.automations.runs({ channelId, limit: 1 });
    expect(runs).toEqual([
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
