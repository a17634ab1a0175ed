import { createClient } from '@switchboard/client';
import axios from 'axios';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/processes.js';
import { ok, startStandIn, type StandIn } from './stand-in.js';

const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'packages/client/package.json'), 'utf8')) as {
  version: string;
};

describe('SDK client options', () => {
  let stand: StandIn | undefined;
  afterEach(() => stand?.close());

  const userAgentOf = async (options: Omit<Parameters<typeof createClient>[0], 'baseUrl' | 'apiKey'>) => {
    stand ??= await startStandIn(() => ok([], { total: 0 }));
    await createClient({ baseUrl: stand.url, apiKey: 'k', ...options }).workspace.channels.list();
    return stand.requests.at(-1)!.headers['user-agent'];
  };

  it('sends the SDK’s User-Agent, then appInfo’s app, after a custom axios instance’s own User-Agent', async () => {
    expect(await userAgentOf({})).toBe(`switchboard-node/${version}`);
    expect(await userAgentOf({ appInfo: { name: 'acme-crm', version: '2.3.0', url: 'https://acme.example' } })).toBe(
      `switchboard-node/${version} acme-crm/2.3.0 (+https://acme.example)`,
    );
    expect(await userAgentOf({ appInfo: { name: 'acme-crm' } })).toBe(`switchboard-node/${version} acme-crm`);
    const http = axios.create({ headers: { 'User-Agent': 'AcmeBot/1.0' } });
    expect(await userAgentOf({ axios: http })).toBe(`AcmeBot/1.0 switchboard-node/${version}`);
    const common = axios.create();
    common.defaults.headers.common['user-agent'] = 'Common/2';
    expect(await userAgentOf({ axios: common, appInfo: { name: 'x' } })).toBe(`Common/2 switchboard-node/${version} x`);
  });

  it('refuses a bad baseUrl, apiKey or appInfo when the client is made, naming the fix', () => {
    const make = (options: Record<string, unknown>) => () =>
      createClient({ baseUrl: 'https://sb.example.com', apiKey: 'k', ...options } as never);
    expect(make({ baseUrl: 'sb.example.com' })).toThrow(/baseUrl must be an absolute URL/);
    expect(make({ baseUrl: 'ftp://sb.example.com' })).toThrow(/http:\/\/ or https:\/\//);
    expect(make({ baseUrl: 'https://sb.example.com/api/workspace/v1' })).toThrow(
      /without \/api\/…: use https:\/\/sb\.example\.com$/,
    );
    expect(make({ baseUrl: 'https://sb.example.com?x=1' })).toThrow(/without query/);
    expect(make({ apiKey: '' })).toThrow(/apiKey is required/);
    expect(make({ apiKey: undefined })).toThrow(TypeError);
    expect(make({ appInfo: { name: 'acme crm' } })).toThrow(/appInfo.name/);
    expect(make({ baseUrl: 'https://sb.example.com/switchboard/' })).not.toThrow();
  });

  it('sends to the server root under a path prefix, without a doubled slash', async () => {
    stand = await startStandIn(() => ok([], { total: 0 }));
    await createClient({ baseUrl: `${stand.url}/sb/`, apiKey: 'k' }).workspace.channels.list();
    expect(stand.requests[0]!.path).toBe('/sb/api/workspace/v1/channels/list');
  });
});
