import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../helpers/database.js';
import { tenantSeed } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../helpers/receivers.js';
import {
  connectChannel,
  eventsOf,
  isoAt,
  messagesChange,
  notification,
  postSigned,
  SECRETS_KEY,
  storedDeliveries,
  type ConnectedChannel,
  type MetaMessage,
} from './inbound-fixture.js';

interface ReceivedEvent {
  msgid: string;
  channelId: string;
  contact: { id: string; name: string; phone: string };
  type: string;
  text?: string;
  timestamp: string;
}

/**
 * Issue #11: customers' `messages[]` become inbound messages of the channel, from a contact found or created by
 * phone (the per-channel counter stays exact), and `message.received` goes out signed.
 */
describe('inbound WhatsApp messages and message.received', () => {
  const secret = newWebhookSecret();
  let server: TestServer;
  let hooks: WebhookReceiver;
  let whatsapp: ConnectedChannel;
  let memberKey: string;
  let serial = 0;

  const post = (...messages: MetaMessage[]) =>
    postSigned(
      server.baseUrl,
      whatsapp,
      notification({ wabaId: whatsapp.wabaId, changes: [messagesChange(whatsapp.phoneNumberId, { messages })] }),
    );
  const nextId = () => `wamid.IN${++serial}${Date.now()}`;
  const client = () => server.client(memberKey).workspace;
  const contactsTotal = async () => (await client().contacts.list({ channelId: whatsapp.channelId })).pagination.total;
  const contactsWithPhone = (phone: string) =>
    sql(server.databaseUrl, 'select id, name from contacts where channel_id = $1 and phone = $2', [
      whatsapp.channelId,
      phone,
    ]);
  const receivedFor = (msgid: string) =>
    eventsOf<ReceivedEvent>(hooks.received, 'message.received', (data) => data.msgid === msgid);
  const applied = () =>
    expect
      .poll(
        async () =>
          (await storedDeliveries(server.databaseUrl, whatsapp.channelId)).every((row) => row.status === 'applied'),
        { timeout: 10_000, interval: 50 },
      )
      .toBe(true);

  beforeAll(async () => {
    hooks = await startWebhookReceiver(secret);
    server = await startTestServer({ SECRETS_KEY, DELIVERY_RETRY_SCHEDULE: '1', ALLOW_HTTP_WEBHOOKS: 'true' });
    const file = tenantSeed('Acme');
    file.platforms![0]!.webhooks = [{ url: hooks.url, secret, events: ['message.received'] }];
    const ids = await server.seed(file);
    memberKey = ids.users!.member!.apiKey!;
    whatsapp = await connectChannel({ em: server.database.orm.em.fork() }, ids.channels!.main!);
  });
  afterAll(async () => {
    await server?.close();
    await hooks?.close();
  });

  it(
    'a text from a new number creates the contact with its profile name (counter +1 exactly) and announces the ' +
      'message',
    async () => {
      const before = await contactsTotal();
      const msgid = nextId();
      expect(
        (await post({ id: msgid, from: '15550009876', name: 'Katherine Johnson', text: 'Where is my order?', at: 10 }))
          .status,
      ).toBe(200);
      await expect.poll(() => receivedFor(msgid).length, { timeout: 10_000, interval: 50 }).toBe(1);

      const [contact] = await contactsWithPhone('15550009876');
      expect(contact).toMatchObject({ name: 'Katherine Johnson' });
      expect(await contactsTotal()).toBe(before + 1);
      expect(receivedFor(msgid)[0]).toEqual({
        type: 'message.received',
        timestamp: isoAt(10),
        data: {
          msgid,
          channelId: whatsapp.channelId,
          contact: { id: contact!.id, name: 'Katherine Johnson', phone: '15550009876' },
          type: 'text',
          text: 'Where is my order?',
          media: null,
          replyTo: null,
          interactive: null,
          reaction: null,
          location: null,
          timestamp: isoAt(10),
        },
      });
      expect((await client().chat.message.status({ msgid })).data).toEqual({
        msgid,
        status: 'delivered',
        direction: 'inbound',
        type: 'text',
      });
      expect(
        await sql(server.databaseUrl, 'select "from", "to", body, contact_id from messages where msgid = $1', [msgid]),
      ).toEqual([{ from: '15550009876', to: null, body: 'Where is my order?', contact_id: contact!.id }]);

      // The next message from that number finds the same contact.
      const second = nextId();
      await post({ id: second, from: '15550009876', name: 'Kathy J.', type: 'image' });
      await expect.poll(() => receivedFor(second).length, { timeout: 10_000, interval: 50 }).toBe(1);
      expect(receivedFor(second)[0]!.data).toEqual({
        msgid: second,
        channelId: whatsapp.channelId,
        contact: { id: contact!.id, name: 'Katherine Johnson', phone: '15550009876' },
        type: 'image',
        text: null,
        // An image without Meta's media object is still recorded, with no file (inbound-types covers real ones).
        media: null,
        replyTo: null,
        interactive: null,
        reaction: null,
        location: null,
        timestamp: isoAt(0),
      });
      expect(await contactsTotal()).toBe(before + 1);
    },
  );

  it(
    'an existing contact keeps its name; an unknown type is recorded as unsupported; no profile name names the ' +
      'contact by number',
    async () => {
      const before = await contactsTotal();
      const [fromAda, odd, anonymous] = [nextId(), nextId(), nextId()];
      await post(
        { id: fromAda, from: '15550000001', name: 'Countess of Lovelace', text: 'Hi' },
        { id: odd, from: '15550000001', type: 'ephemeral' },
        { id: anonymous, from: '4915112345678' },
      );
      await applied();
      await expect
        .poll(() => [fromAda, odd, anonymous].map((id) => receivedFor(id).length), { timeout: 10_000, interval: 50 })
        .toEqual([1, 1, 1]);
      expect(receivedFor(fromAda)[0]!.data.contact.name).toBe('Ada Lovelace');
      expect(receivedFor(odd)[0]!.data.type).toBe('unsupported');
      expect((await client().chat.message.status({ msgid: odd })).data.type).toBe('unsupported');
      expect(receivedFor(anonymous)[0]!.data.contact).toMatchObject({ name: '4915112345678', phone: '4915112345678' });
      expect(await contactsTotal()).toBe(before + 1);
    },
  );

  it('the same message in two different deliveries is recorded and announced once', async () => {
    const msgid = nextId();
    await post({ id: msgid, from: '15550000002', text: 'Once' });
    await post(
      { id: msgid, from: '15550000002', text: 'Once' },
      { id: nextId(), from: '15550000002', text: 'and another' },
    );
    await applied();
    await server.untilIdle();
    expect(receivedFor(msgid)).toHaveLength(1);
    expect(await sql(server.databaseUrl, 'select count(*)::int as n from messages where msgid = $1', [msgid])).toEqual([
      { n: 1 },
    ]);
  });

  it('first messages from one new number in parallel deliveries make one contact', async () => {
    const before = await contactsTotal();
    const replies = await Promise.all(
      [1, 2, 3, 4].map(() => post({ id: nextId(), from: '447700900123', name: 'Parallel Pat', text: 'hello' })),
    );
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
    await applied();
    expect(await contactsWithPhone('447700900123')).toHaveLength(1);
    expect(await contactsTotal()).toBe(before + 1);
    expect(
      await sql(server.databaseUrl, 'select count(*)::int as n from contacts where channel_id = $1', [
        whatsapp.channelId,
      ]),
    ).toEqual([{ n: before + 1 }]);
  });

  it('text and names with NUL or control characters are stored cleaned, never a failed delivery', async () => {
    const msgid = nextId();
    await post({ id: msgid, from: '15550004444', name: 'Null\u0000 Byte\nName', text: 'a\u0000b\nc' });
    await expect.poll(() => receivedFor(msgid).length, { timeout: 10_000, interval: 50 }).toBe(1);
    expect(receivedFor(msgid)[0]!.data).toMatchObject({ contact: { name: 'Null Byte Name' }, text: 'ab\nc' });
  });

  it(
    'template review results, senders that are not phone numbers and other phone_number_ids are skipped; the ' +
      'delivery is applied',
    async () => {
      const [odd, foreign] = [nextId(), nextId()];
      const payload = notification({
        wabaId: whatsapp.wabaId,
        changes: [
          {
            field: 'message_template_status_update',
            value: {
              event: 'APPROVED',
              message_template_id: 1234,
              message_template_name: 'order_update',
              message_template_language: 'en_US',
              reason: null,
            },
          },
          messagesChange(whatsapp.phoneNumberId, { messages: [{ id: odd, from: 'not-a-number', text: 'x' }] }),
          messagesChange('999000999000999', { messages: [{ id: foreign, from: '15550001111', text: 'x' }] }),
        ],
      });
      expect((await postSigned(server.baseUrl, whatsapp, payload)).status).toBe(200);
      await applied();
      expect(
        await sql(server.databaseUrl, 'select count(*)::int as n from messages where msgid = any($1)', [
          [odd, foreign],
        ]),
      ).toEqual([{ n: 0 }]);
    },
  );
});
