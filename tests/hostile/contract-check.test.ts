import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractDriftError, contractCheckedHttp } from '../helpers/contract-check.js';

/** The e2e client's contract check itself: a stand-in answers channels/list with drifted replies. */
describe('replies are checked against the contract', () => {
  let server: Server;
  let baseURL: string;
  let reply: { status: number; body: unknown };

  beforeAll(async () => {
    server = createServer((_req, res) =>
      res.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(reply.body)),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const call = () =>
    contractCheckedHttp({ baseURL, validateStatus: () => true }).post('/api/workspace/v1/channels/list', {});
  const channel = {
    id: '0b6f7c1e-3f4a-4e4e-9a59-3c1c8f1f1a01',
    name: 'Main',
    phone: '15550001111',
    status: 'active',
    quality: 'unknown',
    messagingLimit: null,
    createdAt: '2026-01-01T00:00:00.000Z',
  };

  it('passes a reply that matches', async () => {
    reply = { status: 200, body: { success: true, data: [channel], total: 1 } };
    expect((await call()).status).toBe(200);
  });

  it('fails on a drifted field, an undeclared status, or an error outside the envelope', async () => {
    reply = { status: 200, body: { success: true, data: [{ ...channel, phone: 15550001111 }], total: 1 } };
    await expect(call()).rejects.toThrow(ContractDriftError);
    await expect(call()).rejects.toThrow(/data\.0\.phone/);
    reply = { status: 418, body: { success: false, error: 'teapot', message: 'no' } };
    await expect(call()).rejects.toThrow(/declares no such status/);
    reply = { status: 400, body: { error: 'invalid_request' } };
    await expect(call()).rejects.toThrow(ContractDriftError);
  });
});
