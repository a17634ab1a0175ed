import { contract } from '@switchboard/contract';
import type { PostmanEvent } from './postman.js';

/** What a request needs created first: a call to `path` with `body`, and the reply value its example refers to. */
interface ExampleSetup {
  path: string;
  body: Record<string, unknown>;
  /** Body fields computed when the request runs, as JavaScript expressions (a unique name, a time ahead of now). */
  computed?: Record<string, string>;
  fills?: { variable: string; from: string };
  /** Only when `fills.variable` is empty: the record is kept and used again (one automation to update). */
  unlessSet?: boolean;
}

/** The approved template of the channel the examples send (two placeholders, like the demo's order_update). */
export const TEMPLATE_PICK = '(reply.data.find((template) => template.variableCount === 2) || {}).name';
/** Body fields the template setups take from the `templateName` variable (filled by a lookup first). */
const TEMPLATE_FIELD = { templateName: "pm.variables.get('templateName')" };

/**
 * Requests that use up what they act on (the deletes, the cancels): their pre-request script first creates a
 * throwaway contact, label, broadcast or scheduled message through the API, so the collection runs any number of
 * times and never deletes anything else; and requests that need a record no request before them makes (an
 * automation, a customer's photo) make it the first time. Keyed by operationId without the `Get` suffix, as both
 * routes of an endpoint need it.
 */
const SETUPS: Record<string, ExampleSetup> = {
  workspaceContactsDelete: {
    path: contract.workspace.contacts.manage.post.path,
    body: { phone: '15550009999', name: 'Throwaway contact' },
    fills: { variable: 'contactId', from: 'reply.data.id' },
  },
  workspaceLabelsDelete: { path: contract.workspace.labels.manage.post.path, body: { name: 'obsolete' } },
  // The example cancels a broadcast: a throwaway one scheduled for tomorrow, so nothing is sent.
  workspaceBroadcastsManage: {
    path: contract.workspace.broadcasts.manage.post.path,
    body: {
      action: 'create',
      variables: ['{{contact.name}}', 'A-1001'],
      audience: { all: true },
    },
    computed: {
      ...TEMPLATE_FIELD,
      name: "'Throwaway broadcast ' + Date.now() + Math.random()",
      scheduledAt: 'new Date(Date.now() + 86400000).toISOString()',
    },
    fills: { variable: 'broadcastId', from: 'reply.data.id' },
  },
  // The example cancels a scheduled message: a throwaway template send scheduled for tomorrow.
  workspaceChatMessageCancel: {
    path: contract.workspace.chat.templates.send.post.path,
    body: { to: '15550000001', variables: ['Ada', 'A-1001'] },
    computed: { ...TEMPLATE_FIELD, scheduledAt: 'new Date(Date.now() + 86400000).toISOString()' },
    fills: { variable: 'scheduledMsgid', from: 'reply.data.msgid' },
  },
  // The example pauses an automation: a workspace without one gets a paused one that sends nothing, kept for the
  // next run (automations/list fills automationId with the newest).
  workspaceAutomationsManage: {
    path: contract.workspace.automations.manage.post.path,
    body: {
      action: 'create',
      status: 'paused',
      trigger: { event: 'contact.created' },
      actions: [{ type: 'send_text', text: 'Welcome, {{contact.name}}!' }],
    },
    computed: { name: "'Example automation ' + Date.now()" },
    fills: { variable: 'automationId', from: 'reply.data.id' },
    unlessSet: true,
  },
  // The example links to a customer's photo: on a sandbox channel, the customer sends one first.
  workspaceChatMediaGet: {
    path: contract.workspace.sandbox.receive.post.path,
    body: { from: '15550000001', type: 'image', text: 'The parcel arrived damaged' },
    fills: { variable: 'photoMsgid', from: 'reply.data.msgid' },
    unlessSet: true,
  },
};

/**
 * Requests that create what may exist once (a webhook endpoint per URL, a template per name and language): their
 * pre-request script first deletes the one an earlier run of the collection created, so the collection runs any
 * number of times. Each is JavaScript over `sent(field)` (the request's own parameter), `each` (a listed record) and
 * `found` (the one to delete). Keyed like SETUPS.
 */
interface ExampleClear {
  list: string;
  listParameters: string;
  matches: string;
  manage: string;
  deleteParameters: string;
  /** The variable the request's reply fills with the record's id: emptied when that record is deleted. */
  variable?: string;
}
const CLEARS: Record<string, ExampleClear> = {
  platformWebhooksManage: {
    list: contract.platform.webhooks.list.post.path,
    listParameters: "{ platformId: sent('platformId') }",
    matches: "each.url === sent('url')",
    manage: contract.platform.webhooks.manage.post.path,
    deleteParameters: "{ platformId: sent('platformId'), endpointId: found.id, delete: true }",
    variable: 'webhookEndpointId',
  },
  // On a sandbox channel. Meta refuses a deleted template's name for a month: on a WhatsApp channel, name it anew.
  workspaceChatTemplatesManage: {
    list: contract.workspace.chat.templates.list.post.path,
    listParameters: "{ channelId: sent('channelId'), status: 'all' }",
    matches: "each.name === sent('name') && each.language === sent('language')",
    manage: contract.workspace.chat.templates.manage.post.path,
    deleteParameters: "{ channelId: sent('channelId'), action: 'delete', templateId: found.id }",
  },
};

/** The Postman script lines that delete what the request would create again, found in its list. */
function clearLines({ list, listParameters, matches, manage, deleteParameters, variable }: ExampleClear): string[] {
  const call = (path: string, body: string) => [
    `  url: pm.variables.get('baseUrl') + '${path}',`,
    "  method: 'POST',",
    "  header: { 'Content-Type': 'application/json', 'X-API-Key': pm.variables.get('apiKey') },",
    `  body: { mode: 'raw', raw: JSON.stringify(${body}) },`,
  ];
  return [
    "const raw = pm.request.method === 'GET' ? pm.request.url.query.toObject() : JSON.parse(pm.request.body.raw);",
    'const sent = (field) => pm.variables.replaceIn(decodeURIComponent(raw[field]));',
    'pm.sendRequest({',
    ...call(list, listParameters),
    '}, (error, response) => {',
    `  if (error || response.code !== 200) throw new Error('setup call ${list} failed: ' + ` +
      '(error || response.text()));',
    `  for (const found of response.json().data.filter((each) => ${matches})) {`,
    '    pm.sendRequest({',
    ...call(manage, deleteParameters).map((line) => `    ${line}`),
    '    }, (failure, deleted) => {',
    `      if (failure || deleted.code !== 200) throw new Error('setup call ${manage} failed: ' + ` +
      '(failure || deleted.text()));',
    ...(variable
      ? [
          `      if (pm.variables.get('${variable}') === found.id) ` +
            `(pm.environment.has('${variable}') ? pm.environment : pm.collectionVariables).set('${variable}', '');`,
        ]
      : []),
    '    });',
    '  }',
    '});',
  ];
}

/**
 * The Postman script lines of one setup: the call (with the channelId variable when it is set), then the fill; only
 * when the variable is empty for an `unlessSet` one.
 */
function setupLines(setup: ExampleSetup): string[] {
  const lines = callLines(setup);
  if (!setup.unlessSet || !setup.fills) return lines;
  return [`if (!pm.variables.get('${setup.fills.variable}')) {`, ...lines.map((line) => `  ${line}`), '}'];
}

function callLines({ path, body, computed = {}, fills }: ExampleSetup): string[] {
  return [
    `const body = ${JSON.stringify(body)};`,
    ...Object.entries(computed).map(([field, expression]) => `body.${field} = ${expression};`),
    "if (pm.variables.get('channelId')) body.channelId = pm.variables.get('channelId');",
    'pm.sendRequest({',
    `  url: pm.variables.get('baseUrl') + '${path}',`,
    "  method: 'POST',",
    "  header: { 'Content-Type': 'application/json', 'X-API-Key': pm.variables.get('apiKey') },",
    "  body: { mode: 'raw', raw: JSON.stringify(body) },",
    '}, (error, response) => {',
    `  if (error || response.code !== 200) throw new Error('setup call ${path} failed: ' + (error || ` +
      `response.text()));`,
    ...(fills
      ? [
          '  const reply = response.json();',
          `  (pm.environment.has('${fills.variable}') ? pm.environment : ` +
            `pm.collectionVariables).set('${fills.variable}', ${fills.from});`,
        ]
      : []),
    '});',
  ];
}

/** A variable a list endpoint can supply: `pick` is a JavaScript expression over `reply` giving the id, or nothing. */
interface Lookup {
  variable: string;
  path: string;
  /**
   * What the list is of: the key's own (no parameters), the `platformId` variable's platform (an earlier lookup of
   * the same request fills it when empty), or the `channelId` variable's channel (the key's only channel when empty).
   */
  of: 'key' | 'platform' | 'channel';
  pick: string;
}

/** The approved template the template examples send, from chat/templates/list when `templateName` is empty. */
const TEMPLATE_LOOKUP: Lookup = {
  variable: 'templateName',
  path: contract.workspace.chat.templates.list.post.path,
  of: 'channel',
  pick: TEMPLATE_PICK,
};

/**
 * Ids a request needs that the API itself can tell: when the variable is empty, its pre-request script reads it
 * from a list (in order, so platformId comes first), so a user needs only baseUrl and apiKey. Keyed like SETUPS.
 */
const LOOKUPS: Record<string, Lookup[]> = {
  platformAddonManage: [
    { variable: 'platformId', path: contract.platform.id.list.post.path, of: 'key', pick: 'reply.data.id' },
    {
      variable: 'userId',
      path: contract.platform.users.list.post.path,
      of: 'platform',
      pick: '(reply.data.find((user) => user.hasActiveSubscription) || {}).id',
    },
    {
      // The example assigns it monthly: an active add-on with a monthly price.
      variable: 'addonId',
      path: contract.platform.addon.list.post.path,
      of: 'platform',
      pick: '(reply.data.find((plan) => plan.isActive && plan.prices.monthly != null) || {}).id',
    },
  ],
  workspaceBroadcastsManage: [TEMPLATE_LOOKUP],
  workspaceChatMessageCancel: [TEMPLATE_LOOKUP],
};

/**
 * The script lines that fill each empty variable of `lookups` in turn, each call waiting for the one before, then run
 * `after` (a setup using what they found).
 */
function lookupLines(lookups: Lookup[], after: string[]): string[] {
  return [
    'const afterLookups = () => {',
    ...after.map((line) => `  ${line}`),
    '};',
    'const lookups = [',
    ...lookups.map(({ variable, path, of, pick }) => `  ['${variable}', '${path}', '${of}', (reply) => ${pick}],`),
    '];',
    '(function next(index) {',
    '  if (index === lookups.length) return afterLookups();',
    '  const [variable, path, of, pick] = lookups[index];',
    '  if (pm.variables.get(variable)) return next(index + 1);',
    "  const parameters = { platform: { platformId: pm.variables.get('platformId') }, key: {}, " +
      "channel: pm.variables.get('channelId') ? { channelId: pm.variables.get('channelId') } : {} }[of];",
    '  pm.sendRequest({',
    "    url: pm.variables.get('baseUrl') + path,",
    "    method: 'POST',",
    "    header: { 'Content-Type': 'application/json', 'X-API-Key': pm.variables.get('apiKey') },",
    "    body: { mode: 'raw', raw: JSON.stringify(parameters) },",
    '  }, (error, response) => {',
    "    if (error || response.code !== 200) throw new Error('looking up ' + variable + ' with ' + path + ' failed: " +
      "' + (error || response.text()));",
    '    const id = pick(response.json());',
    "    if (!id) throw new Error(path + ' found no ' + variable + ' for this request; set ' + variable + ' in the " +
      "environment');",
    '    (pm.environment.has(variable) ? pm.environment : pm.collectionVariables).set(variable, id);',
    '    next(index + 1);',
    '  });',
    '})(0);',
  ];
}

/** The pre-request script lines of an operation (both routes of an endpoint share them), or none. */
function preRequestLines(operationId: string): string[] {
  const setup = SETUPS[operationId];
  const lookups = LOOKUPS[operationId];
  const clear = CLEARS[operationId];
  const setupAndClear = [...(setup ? setupLines(setup) : []), ...(clear ? clearLines(clear) : [])];
  return lookups ? lookupLines(lookups, setupAndClear) : setupAndClear;
}

/** The pre-request script of an endpoint (its POST route's operationId) that needs one, else undefined. */
export function setupScript(endpointId: string): PostmanEvent | undefined {
  const exec = preRequestLines(endpointId);
  return exec.length ? { listen: 'prerequest', script: { type: 'text/javascript', exec } } : undefined;
}

/**
 * Every setup and clear as Portman's `operationPreRequestScripts` config wants it (both routes of each endpoint).
 * Not the lookups: a Portman config writes every id into the requests itself.
 */
export function portmanPreRequestScripts(): { openApiOperationIds: string[]; scripts: string[] }[] {
  const scripts = [
    ...Object.entries(SETUPS).map(([operationId, setup]) => [operationId, setupLines(setup)] as const),
    ...Object.entries(CLEARS).map(([operationId, clear]) => [operationId, clearLines(clear)] as const),
  ];
  return scripts.map(([operationId, lines]) => ({
    openApiOperationIds: [operationId, `${operationId}Get`],
    scripts: [lines.join('\n')],
  }));
}
