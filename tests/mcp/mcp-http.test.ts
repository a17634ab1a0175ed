import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { contract, contractEndpoints } from '@switchboard/contract';
import { TOOLS } from '@switchboard/mcp';
import { describe, expect } from 'vitest';
import { callFails, callOk, mcpOverHttp } from '../helpers/mcp.js';
import { test } from '../helpers/test.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '8' } },
};
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('POST /mcp: the API as MCP tools over Streamable HTTP', { timeout: 60_000 }, () => {
  test('lists one tool per contract endpoint, with the annotations its effects give', async ({ server, acme }) => {
    const client = await mcpOverHttp(server.baseUrl, { 'X-API-Key': acme.ownerKey });
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(contractEndpoints(contract).length);
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('contacts_list')!.annotations).toEqual({
      title: 'List contacts of a channel, paginated',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(byName.get('chat_message_send')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(byName.get('contacts_delete')!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(byName.get('labels_manage')!.annotations).toMatchObject({ destructiveHint: false, idempotentHint: true });
    expect(byName.get('contacts_list')!.description).toMatch(/Rate limit class: `api_read`/);
    expect(byName.get('contacts_list')!.inputSchema.properties).toHaveProperty('search');
    expect(client.getInstructions()).toMatch(/channels_list/);
    await client.close();
  });

  test('contacts_list returns what contacts/list returns', async ({ server, acme }) => {
    const client = await mcpOverHttp(server.baseUrl, { Authorization: `Bearer ${acme.ownerKey}` });
    const params = { channelId: acme.mainChannelId, limit: 2 };
    const viaTool = await callOk(client, 'contacts_list', params);
    const { success: _success, ...viaApi } = await server.client(acme.ownerKey).workspace.contacts.list(params);
    expect(viaTool).toEqual(viaApi);
    expect(viaTool).toMatchObject({ pagination: { page: 1, limit: 2 } });
    await client.close();
  });

  test('chat_message_send sends, and the sandbox delivers it', async ({ server, acme }) => {
    const client = await mcpOverHttp(server.baseUrl, { 'X-API-Key': acme.memberKey });
    const sent = await callOk<{ data: { msgid: string; status: string } }>(client, 'chat_message_send', {
      to: '15550000001',
      text: 'Your order ships today.',
    });
    expect(sent).toEqual({
      data: { msgid: expect.stringMatching(/^wamid\./), status: 'accepted', to: '15550000001', type: 'text' },
      message: 'Message queued',
    });
    const api = server.client(acme.memberKey).workspace.chat;
    await expect
      .poll(async () => (await api.message.status({ msgid: sent.data.msgid })).data.status, { timeout: 10_000 })
      .toBe('delivered');
    const history = await callOk<{ data: { msgid: string; text: string }[] }>(client, 'chat_messages_list', {
      phone: '15550000001',
      limit: 1,
    });
    expect(history.data[0]).toMatchObject({ msgid: sent.data.msgid, text: 'Your order ships today.' });
    await client.close();
  });

  test('a bad argument is an error result naming the field', async ({ server, acme }) => {
    const client = await mcpOverHttp(server.baseUrl, { 'X-API-Key': acme.memberKey });
    expect(await callFails(client, 'contacts_list', { limit: 500 })).toEqual({
      error: 'invalid_request',
      message: expect.stringMatching(/^limit: /),
    });
    expect(await callFails(client, 'contacts_list', { serach: 'ada' })).toMatchObject({
      error: 'invalid_request',
      message: expect.stringContaining('serach'),
    });
    expect(await callFails(client, 'chat_message_send', { to: '15550000001' })).toEqual({
      error: 'invalid_request',
      message: expect.stringMatching(/^text: /),
    });
    await client.close();
  });

  test('another tenant’s channel is refused, as over HTTP', async ({ server, acme, globex }) => {
    const client = await mcpOverHttp(server.baseUrl, { 'X-API-Key': acme.ownerKey });
    expect(await callFails(client, 'contacts_list', { channelId: globex.mainChannelId })).toMatchObject({
      error: 'forbidden',
    });
    expect(
      await callFails(client, 'chat_message_send', { channelId: globex.mainChannelId, to: '15550000001', text: 'x' }),
    ).toMatchObject({ error: 'forbidden' });
    // A member's key has no platform access: the platform tools answer 403 as the API does.
    const member = await mcpOverHttp(server.baseUrl, { 'X-API-Key': acme.memberKey });
    expect(await callFails(member, 'platform_id_list', {})).toMatchObject({ error: 'forbidden' });
    await Promise.all([client.close(), member.close()]);
  });

  test('a tool call spends its endpoint’s rate class, from the budget the key’s HTTP calls use', async ({
    server,
    acme,
  }) => {
    const remaining = async () => {
      const reply = await server.http.post(
        '/api/workspace/v1/labels/list',
        {},
        { headers: { 'X-API-Key': acme.auditorKey } },
      );
      return Number(reply.headers['ratelimit-remaining']);
    };
    const before = await remaining();
    const client = await mcpOverHttp(server.baseUrl, { 'X-API-Key': acme.auditorKey });
    await callOk(client, 'labels_list', { channelId: acme.mainChannelId });
    await callOk(client, 'contacts_list', { channelId: acme.mainChannelId });
    // Listing tools and the MCP handshake spend nothing; each call one point of api_read.
    await client.listTools();
    expect(await remaining()).toBe(before - 3);
    await client.close();
  });

  test('?tools=read offers only read tools, and a write is not callable there', async ({ server, acme }) => {
    const client = await mcpOverHttp(server.baseUrl, { 'X-API-Key': acme.memberKey }, '?tools=read');
    const { tools } = await client.listTools();
    expect(tools.length).toBe(TOOLS.filter((tool) => tool.annotations.readOnlyHint).length);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.map((tool) => tool.name)).not.toContain('chat_message_send');
    await expect(
      client.callTool({ name: 'chat_message_send', arguments: { to: '15550000001', text: 'x' } }),
    ).rejects.toThrow(/No tool named chat_message_send/);
    // The prompt that would send says it cannot.
    const prompt = await client.getPrompt({ name: 'answer_conversation', arguments: { phone: '15550000001' } });
    expect((prompt.messages[0]!.content as { text: string }).text).toMatch(/cannot send/);
    await client.close();
  });

  test('?tools=contacts,chat offers those groups; ?tools=read,chat the reads of chat', async ({ server, acme }) => {
    const groups = await mcpOverHttp(server.baseUrl, { 'X-API-Key': acme.memberKey }, '?tools=contacts,chat');
    const names = (await groups.listTools()).tools.map((tool) => tool.name);
    expect(new Set(names.map((name) => name.split('_')[0]))).toEqual(new Set(['contacts', 'chat']));
    expect(names).toEqual(expect.arrayContaining(['contacts_list', 'chat_message_send', 'chat_notes_manage']));
    const reads = await mcpOverHttp(server.baseUrl, { 'X-API-Key': acme.memberKey }, '?tools=read,chat');
    const readNames = (await reads.listTools()).tools.map((tool) => tool.name);
    expect(readNames).toContain('chat_messages_list');
    expect(readNames.every((name) => name.startsWith('chat_') && !/_(send|manage|cancel)$/.test(name))).toBe(true);
    await Promise.all([groups.close(), reads.close()]);
    const typo = await server.http.post('/mcp?tools=contcts', INITIALIZE, {
      headers: { ...MCP_HEADERS, 'X-API-Key': acme.memberKey },
    });
    expect(typo.status).toBe(400);
    expect(typo.data).toMatchObject({
      error: 'invalid_request',
      message: expect.stringMatching(/^tools: .*"contcts"/),
    });
  });

  test('answers one tools/call with no session first, as the README’s curl sends it', async ({ server, acme }) => {
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'chat_conversations_list', arguments: { channelId: acme.mainChannelId, status: 'open' } },
    };
    const reply = await server.http.post('/mcp', call, { headers: { ...MCP_HEADERS, 'X-API-Key': acme.ownerKey } });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.data).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { structuredContent: { data: expect.any(Array) } },
    });
    expect(reply.data.result.structuredContent.data.map((c: { phone: string }) => c.phone)).toContain('15550000001');
  });

  test('prompts read through the tools: a conversation with its notes, and the inbox', async ({ server, acme }) => {
    const client = await mcpOverHttp(server.baseUrl, { 'X-API-Key': acme.memberKey });
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['answer_conversation', 'summarize_inbox']);
    await server.client(acme.memberKey).workspace.chat.notes.manage({
      action: 'create',
      phone: '15550000001',
      text: 'Ada prefers e-mail for invoices.',
    });
    const answer = await client.getPrompt({ name: 'answer_conversation', arguments: { phone: '15550000001' } });
    const answerText = (answer.messages[0]!.content as { text: string }).text;
    const { data: history } = await server
      .client(acme.memberKey)
      .workspace.chat.messages.list({ phone: '15550000001', limit: 20 });
    expect(answerText).toContain(history[0]!.msgid);
    expect(answerText).toContain('Ada prefers e-mail for invoices.');
    expect(answerText).toMatch(/24 hours/);
    expect(answerText).toMatch(/chat_message_send/);

    const inbox = await client.getPrompt({ name: 'summarize_inbox', arguments: {} });
    const inboxText = (inbox.messages[0]!.content as { text: string }).text;
    const { data: open, pagination } = await server
      .client(acme.memberKey)
      .workspace.chat.conversations.list({ status: ['open', 'pending'], limit: 100 });
    expect(inboxText).toContain(`The inbox has ${pagination.total} open or pending conversations`);
    for (const conversation of open) expect(inboxText).toContain(conversation.contactId);
    // A refusal of a read is the prompt's error, with the API's code.
    await expect(
      client.getPrompt({ name: 'answer_conversation', arguments: { phone: '15550009999' } }),
    ).rejects.toThrow(/chat_messages_list: contact_not_found/);
    await expect(client.getPrompt({ name: 'answer_conversation', arguments: {} })).rejects.toThrow(
      /phone: is required/,
    );
    await client.close();
  });

  test('without a valid key: 401 with WWW-Authenticate, before anything MCP', async ({ server }) => {
    for (const headers of [MCP_HEADERS, { ...MCP_HEADERS, 'X-API-Key': 'sb_live_not_a_key' }]) {
      const reply = await server.http.post('/mcp', INITIALIZE, { headers });
      expect(reply.status).toBe(401);
      expect(reply.headers['www-authenticate']).toBe('Bearer');
      expect(reply.data).toMatchObject({ success: false, error: 'unauthorized' });
    }
    // The SDK's client reports the 401 as such (an OAuth-capable client would look for its metadata next).
    await expect(mcpOverHttp(server.baseUrl, {})).rejects.toMatchObject({ code: 401 });
  });

  test('GET and DELETE /mcp are 405: the server is stateless and streams nothing', async ({ server, acme }) => {
    for (const method of ['get', 'delete'] as const) {
      const reply = await server.http[method]('/mcp', { headers: { 'X-API-Key': acme.memberKey } });
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe('POST');
    }
  });

  test('an Idempotency-Key on the MCP request makes a send safe to retry: the retry replays it', async ({
    server,
    acme,
  }) => {
    const headers = { 'X-API-Key': acme.memberKey, 'Idempotency-Key': `mcp-retry-${Date.now()}` };
    const send = async () => {
      const client = await mcpOverHttp(server.baseUrl, headers);
      const result = (await client.callTool({
        name: 'chat_message_send',
        arguments: { to: '15550000001', text: 'Sent once, whatever the retries.' },
      })) as CallToolResult;
      await client.close();
      return result.structuredContent as { data: { msgid: string } };
    };
    const first = await send();
    const retry = await send();
    expect(retry.data.msgid).toBe(first.data.msgid);
    const history = await server
      .client(acme.memberKey)
      .workspace.chat.messages.list({ phone: '15550000001', limit: 50 });
    expect(history.data.filter((message) => message.text === 'Sent once, whatever the retries.')).toHaveLength(1);
  });
});
