import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { demoSeed } from '@switchboard/server';
import { describe, expect, it } from 'vitest';
import { mcpOverHttp, mcpOverStdio } from '../helpers/mcp.js';
import { REPO_ROOT } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { answerAda, Transcript } from './agent-session.js';

/** The bin as the workspace builds it (the packed tarball is tested in mcp-stdio.test.ts). */
const BIN = path.join(REPO_ROOT, 'packages/mcp/bin/switchboard-mcp.js');
const TRANSCRIPTS = path.join(REPO_ROOT, 'tests/artifacts');

const TRANSPORTS: { name: string; connect(server: TestServer, apiKey: string): Promise<Client> }[] = [
  { name: 'Streamable HTTP', connect: (server, apiKey) => mcpOverHttp(server.baseUrl, { 'X-API-Key': apiKey }) },
  {
    name: 'stdio',
    connect: (server, apiKey) => mcpOverStdio(BIN, { SWITCHBOARD_URL: server.baseUrl, SWITCHBOARD_API_KEY: apiKey }),
  },
];

describe('an MCP client works the demo workspace end to end', { timeout: 120_000 }, () => {
  it.for(TRANSPORTS)(
    'over $name: finds Ada’s conversation, reads it, replies, notes it, resolves it',
    async (transport) => {
      const server = await startTestServer();
      try {
        const seeded = await server.seed(demoSeed);
        const ownerKey = seeded.users!.owner!.apiKey!;
        const client = await transport.connect(server, ownerKey);
        const transcript = new Transcript();
        transcript.note(`MCP over ${transport.name}, as the demo owner`);
        const done = await answerAda(client, transcript);
        await client.close();
        mkdirSync(TRANSCRIPTS, { recursive: true });
        writeFileSync(
          path.join(TRANSCRIPTS, `mcp-session-${transport.name.replace(/\W+/g, '-')}.txt`),
          `${transcript}\n`,
        );

        // What the API shows afterwards: the reply delivered, the note kept, the conversation resolved.
        const chat = server.client(ownerKey).workspace.chat;
        expect(done.question.text).toBe('Hi! Where is my order A-1001?');
        await expect
          .poll(async () => (await chat.message.status({ msgid: done.msgid })).data.status, { timeout: 10_000 })
          .toBe('delivered');
        const notes = await chat.notes.list({ channelId: done.channelId, phone: done.phone });
        expect(notes.data[0]).toMatchObject({
          text: expect.stringContaining('A-1001 arrives tomorrow'),
          author: { name: expect.any(String) },
        });
        const resolved = await chat.conversations.list({ channelId: done.channelId, status: 'resolved' });
        expect(resolved.data.map((conversation) => conversation.phone)).toContain(done.phone);
        const history = await chat.messages.list({ channelId: done.channelId, phone: done.phone, limit: 1 });
        expect(history.data[0]).toMatchObject({
          msgid: done.msgid,
          direction: 'outbound',
          replyTo: done.question.msgid,
        });
      } finally {
        await server.close();
      }
    },
  );
});
