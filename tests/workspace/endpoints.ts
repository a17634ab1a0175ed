import type { SwitchboardClient } from '@switchboard/client';
import { contract, contractEndpoints } from '@switchboard/contract';
import type { Tenant } from '../helpers/fixtures.js';

/** One workspace endpoint as the table-driven suites (channel rules, tenants, GET = POST, rate classes) see it. */
export interface WorkspaceEndpoint {
  name: string;
  path: string;
  /** The class this suite expects, written out rather than read from the contract it checks. */
  rateClass: 'api_read' | 'api_write' | 'api_message';
  /** Whether the endpoint takes channelId and follows the channel rules (docs/api.md "Channels"). */
  channelScoped: boolean;
  /** Parameters that succeed for `tenant`'s main channel (channelId left out). */
  params(tenant: Tenant): Record<string, unknown>;
  call(client: SwitchboardClient, params: Record<string, unknown>): Promise<unknown>;
}

type ContractTree = Parameters<typeof contractEndpoints>[0];
type Call = (client: SwitchboardClient, params: Record<string, unknown>) => Promise<unknown>;

/** How the table-driven suites call one endpoint (see WorkspaceEndpoint), or why they leave it out. */
type EndpointCase =
  | {
      rateClass: WorkspaceEndpoint['rateClass'];
      call: Call;
      params?: WorkspaceEndpoint['params'];
      /** False for an endpoint that takes no channelId. */
      channelScoped?: false;
    }
  | { skip: string };

/** `contacts.list`, `chat.templates.send`, …: every endpoint's place in a contract tree, from its type. */
type EndpointKeys<Tree> = {
  [K in keyof Tree & string]: Tree[K] extends { post: unknown; get: unknown } ? K : `${K}.${EndpointKeys<Tree[K]>}`;
}[keyof Tree & string];

/**
 * Every workspace endpoint of the contract, by its place in the tree: TypeScript refuses this table when the
 * contract gains an endpoint it does not name, and the suites iterate the contract, not this table.
 */
const CASES: Record<EndpointKeys<typeof contract.workspace>, EndpointCase> = {
  me: { rateClass: 'api_read', call: (c) => c.workspace.me(), channelScoped: false },
  'channels.list': { skip: 'channels/list has its own foundation suites' },
  'contacts.list': {
    rateClass: 'api_read',
    call: (c, p) => c.workspace.contacts.list(p),
    params: () => ({ page: 1, limit: 2 }),
  },
  'contacts.get': {
    rateClass: 'api_read',
    call: (c, p) => c.workspace.contacts.get(p as { phone: string }),
    params: () => ({ phone: '15550000001' }),
  },
  // Repeatable: an update of a seeded contact.
  'contacts.manage': {
    rateClass: 'api_write',
    call: (c, p) => c.workspace.contacts.manage(p as { phone: string }),
    params: () => ({ phone: '+1 555 000 0002', status: 'active' }),
  },
  'contacts.delete': { skip: 'not repeatable: contacts-get-delete covers it' },
  'labels.list': { rateClass: 'api_read', call: (c, p) => c.workspace.labels.list(p) },
  'labels.manage': {
    rateClass: 'api_write',
    call: (c, p) => c.workspace.labels.manage(p as { name: string }),
    params: () => ({ name: 'vip', color: '#123456' }),
  },
  'labels.delete': { skip: 'not repeatable: labels-delete covers it' },
  'customFields.list': { rateClass: 'api_read', call: (c, p) => c.workspace.customFields.list(p) },
  'automations.list': { rateClass: 'api_read', call: (c, p) => c.workspace.automations.list(p) },
  // Repeatable: renaming the seeded automation to its own name.
  'automations.manage': {
    rateClass: 'api_write',
    call: (c, p) => c.workspace.automations.manage(p as { action: 'update'; automationId: string }),
    params: (tenant) => ({ action: 'update', automationId: tenant.ids.automations!.welcome!, name: 'Welcome' }),
  },
  'automations.runs': { rateClass: 'api_read', call: (c, p) => c.workspace.automations.runs(p) },
  'broadcasts.manage': {
    skip: 'not repeatable (a create takes a new name, a cancel a live broadcast): broadcasts-manage covers it',
  },
  'broadcasts.list': { rateClass: 'api_read', call: (c, p) => c.workspace.broadcasts.list(p) },
  'broadcasts.recipients': {
    rateClass: 'api_read',
    call: (c, p) => c.workspace.broadcasts.recipients(p as { broadcastId: string }),
    params: (tenant) => ({ broadcastId: tenant.ids.broadcasts!.launch! }),
  },
  'chat.templates.list': { rateClass: 'api_read', call: (c, p) => c.workspace.chat.templates.list(p) },
  'chat.templates.send': {
    rateClass: 'api_message',
    call: (c, p) => c.workspace.chat.templates.send(p as { to: string; templateName: string }),
    params: () => ({ to: '+1 555 000 0001', templateName: 'order_update', variables: 'Ada,A-1001' }),
  },
  'chat.templates.manage': {
    skip: 'not repeatable (a create takes a new name, an update an edit budget): templates-manage covers it',
  },
  'chat.templates.sync': { rateClass: 'api_write', call: (c, p) => c.workspace.chat.templates.sync(p) },
  'chat.message.status': {
    rateClass: 'api_read',
    call: (c, p) => c.workspace.chat.message.status(p as { msgid: string }),
    params: (tenant) => ({ msgid: tenant.msgid }),
    channelScoped: false,
  },
  // Repeatable: Ada wrote just now (the tenant seed), so her window is open.
  'chat.message.send': {
    rateClass: 'api_message',
    call: (c, p) => c.workspace.chat.message.send(p as { to: string; text: string }),
    params: () => ({ to: '15550000001', text: 'It ships today.' }),
  },
  'chat.message.cancel': { skip: 'not repeatable (a message is cancelled once): send-pipeline covers it' },
  'chat.message.read': {
    rateClass: 'api_write',
    call: (c, p) => c.workspace.chat.message.read(p as { msgid: string }),
    params: (tenant) => ({ msgid: tenant.inboundMsgid }),
    channelScoped: false,
  },
  // Repeatable: each call is another customer message on the tenant's sandbox channel.
  'sandbox.receive': {
    rateClass: 'api_message',
    call: (c, p) => c.workspace.sandbox.receive(p as { from: string; text: string }),
    params: () => ({ from: '15550000001', text: 'Is my order on its way?' }),
  },
  'chat.messages.list': {
    rateClass: 'api_read',
    call: (c, p) => c.workspace.chat.messages.list(p),
    // Inbound only: the sandbox moves outbound statuses on while a suite runs.
    params: () => ({ phone: '15550000001', direction: 'inbound' }),
  },
  'chat.conversations.list': { rateClass: 'api_read', call: (c, p) => c.workspace.chat.conversations.list(p) },
  'chat.conversations.manage': {
    rateClass: 'api_write',
    call: (c, p) => c.workspace.chat.conversations.manage(p as never),
    // Ada's conversation, left open: a repeat changes nothing.
    params: () => ({ phone: '15550000001', status: 'open' }),
  },
  'chat.notes.list': {
    rateClass: 'api_read',
    call: (c, p) => c.workspace.chat.notes.list(p as never),
    params: () => ({ phone: '15550000001' }),
  },
  'chat.notes.manage': {
    rateClass: 'api_write',
    call: (c, p) => c.workspace.chat.notes.manage(p as never),
    params: () => ({ action: 'create', phone: '15550000001', text: 'A note from the endpoint suites.' }),
  },
  'chat.media.get': {
    rateClass: 'api_read',
    call: (c, p) => c.workspace.chat.media.get(p as { msgid: string }),
    params: (tenant) => ({ msgid: tenant.mediaMsgid }),
    channelScoped: false,
  },
};

/**
 * The repeatable endpoints of a workspace contract tree, in contract order (the channels/list and delete suites are
 * their own). Throws on an endpoint this table has no case for, so every suite that iterates them fails.
 */
export function workspaceEndpoints(tree: ContractTree = contract.workspace): WorkspaceEndpoint[] {
  return contractEndpoints(tree).flatMap(({ at, post }) => {
    const found = (CASES as Record<string, EndpointCase | undefined>)[at.join('.')];
    if (!found) throw new Error(`tests/workspace/endpoints.ts has no case for workspace.${at.join('.')}`);
    if ('skip' in found) return [];
    const { rateClass, call, params = () => ({}), channelScoped = true } = found;
    return [
      {
        name: post.path.replace(/^\/api\/workspace\/v1\//, ''),
        path: post.path,
        rateClass,
        channelScoped,
        params,
        call,
      },
    ];
  });
}

export const WORKSPACE_ENDPOINTS = workspaceEndpoints();
export const CHANNEL_SCOPED = WORKSPACE_ENDPOINTS.filter((e) => e.channelScoped);
