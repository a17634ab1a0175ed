import { contract } from '@switchboard/contract';
import type { PostmanEvent } from './postman.js';

/** What a request needs created first: a call to `path` with `body`, and the reply value its example refers to. */
interface ExampleSetup {
  path: string;
  body: Record<string, unknown>;
  fills?: { variable: string; from: string };
}

/**
 * Requests that use up what they act on (the deletes): their pre-request script first creates a throwaway contact
 * or label through the API, so the collection runs any number of times and never deletes anything else. Keyed by
 * operationId without the `Get` suffix, as both routes of an endpoint need it.
 */
const SETUPS: Record<string, ExampleSetup> = {
  workspaceContactsDelete: {
    path: contract.workspace.contacts.manage.post.path,
    body: { phone: '15550009999', name: 'Throwaway contact' },
    fills: { variable: 'contactId', from: 'reply.data.id' },
  },
  workspaceLabelsDelete: { path: contract.workspace.labels.manage.post.path, body: { name: 'obsolete' } },
};

/** The Postman script lines of one setup: the call (with the channelId variable when it is set), then the fill. */
function setupLines({ path, body, fills }: ExampleSetup): string[] {
  return [
    `const body = ${JSON.stringify(body)};`,
    "if (pm.variables.get('channelId')) body.channelId = pm.variables.get('channelId');",
    'pm.sendRequest({',
    `  url: pm.variables.get('baseUrl') + '${path}',`,
    "  method: 'POST',",
    "  header: { 'Content-Type': 'application/json', 'X-API-Key': pm.variables.get('apiKey') },",
    "  body: { mode: 'raw', raw: JSON.stringify(body) },",
    '}, (error, response) => {',
    `  if (error || response.code !== 200) throw new Error('setup call ${path} failed: ' + (error || response.text()));`,
    ...(fills
      ? [
          '  const reply = response.json();',
          `  (pm.environment.has('${fills.variable}') ? pm.environment : pm.collectionVariables).set('${fills.variable}', ${fills.from});`,
        ]
      : []),
    '});',
  ];
}

/** The pre-request script of an operation that needs one, else undefined. */
export function setupScript(operationId: string): PostmanEvent | undefined {
  const setup = SETUPS[operationId.replace(/Get$/, '')];
  return setup && { listen: 'prerequest', script: { type: 'text/javascript', exec: setupLines(setup) } };
}

/** Every setup as Portman's `operationPreRequestScripts` config wants it (both routes of each endpoint). */
export function portmanPreRequestScripts(): { openApiOperationIds: string[]; scripts: string[] }[] {
  return Object.entries(SETUPS).map(([operationId, setup]) => ({ openApiOperationIds: [operationId, `${operationId}Get`], scripts: [setupLines(setup).join('\n')] }));
}
