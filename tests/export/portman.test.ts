import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EXAMPLE_IDS } from '@switchboard/contract';
import { portmanPreRequestScripts, writeApiFiles } from '@switchboard/openapi';
import { describe, expect } from 'vitest';
import { REPO_ROOT } from '../helpers/processes.js';
import { test } from '../helpers/test.js';
import { run, runOk, SLOW_TIMEOUT_MS } from '../sdk/commands.js';
import { demoVariables, demoWebhookEndpointId, singleChannelDemo } from './demo-ids.js';
import { contractRoutes } from './routes.js';

const BIN = path.join(REPO_ROOT, 'tests/node_modules/.bin');
const PORTMAN_PACKAGE = path.join(REPO_ROOT, 'tests/node_modules/@apideck/portman');

interface Assertion {
  assertion: string;
  error?: { message: string };
}
interface Execution {
  cursor: { ref: string };
  item: { name: string };
  assertions?: Assertion[];
}

/**
 * Portman (https://github.com/apideck-libraries/portman) turns openapi.json into contract tests: status 2xx, JSON
 * content type, a JSON body, the body against the response schema, and every `required` response header. Its own
 * default config file is used as it ships; the only additions are the ids of the seeded tenant in place of the
 * definition's sample ids (rawReplacements), the template variables of one GET (overwrites) and the pre-request
 * scripts of the deletes, the ones the exported Postman collection has (each creates what its request deletes).
 * Portman reads only local files here: the definition and its two bundled default config files.
 */
describe('Portman contract tests generated from openapi.json, run by newman against the live server', () => {
  let dir: string;
  let variables: ReturnType<typeof demoVariables>;

  test.beforeAll(async ({ server }) => {
    variables = demoVariables(server.baseUrl, await server.seed(singleChannelDemo));
    dir = mkdtempSync(path.join(tmpdir(), 'switchboard-portman-'));
    await writeApiFiles(dir, { serverUrl: server.baseUrl });
    const defaults = JSON.parse(readFileSync(path.join(PORTMAN_PACKAGE, 'portman-config.default.json'), 'utf8'));
    const { platformId, channelId, userId, addonId, ticketId } = variables;
    // contactId: set by the pre-request script of contacts/delete.
    const ids = { platformId, channelId, userId, addonId, ticketId, contactId: '{{contactId}}', webhookEndpointId: await demoWebhookEndpointId(server, variables) };
    const rawReplacements = Object.entries(ids).map(([name, id]) => ({ searchFor: EXAMPLE_IDS[name as keyof typeof ids], replaceWith: id }));
    // Portman leaves optional query parameters out; the demo's templates take variables, and a webhook endpoint is
    // created from a url and events, so those GETs send them as the POST examples do.
    const query = (values: Record<string, string>) => Object.entries(values).map(([key, value]) => ({ key, value, overwrite: true }));
    const overwrites = [
      // A fresh Idempotency-Key per request (Postman's {{$guid}}), as the generated collection does: the definition's
      // header has no example, and one made-up value shared by every write would be 422 idempotency_key_reused.
      { openApiOperation: '*::/*', overwriteRequestHeaders: [{ key: 'Idempotency-Key', value: '{{$guid}}', overwrite: true }] },
      { openApiOperationId: 'workspaceChatTemplatesSendGet', overwriteRequestQueryParams: query({ variables: 'Ada,A-1001' }) },
      { openApiOperationId: 'platformWebhooksManageGet', overwriteRequestQueryParams: query({ url: 'https://hooks.example.com/switchboard', events: 'ticket.closed' }) },
    ];
    const config = { ...defaults, overwrites, operationPreRequestScripts: portmanPreRequestScripts(), globals: { ...defaults.globals, rawReplacements } };
    writeFileSync(path.join(dir, 'portman-config.json'), JSON.stringify(config));
  });
  test.afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('every generated assertion passes, headers included', async () => {
    const args = ['-l', 'openapi.json', '-b', variables.baseUrl, '-c', 'portman-config.json', '-o', 'portman.postman_collection.json'];
    await runOk(path.join(BIN, 'portman'), args, { cwd: dir });
    const report = path.join(dir, 'report.json');
    const newman = ['run', 'portman.postman_collection.json', '--env-var', `apiKey=${variables.apiKey}`, '--reporters', 'json', '--reporter-json-export', report];
    const result = await run(path.join(BIN, 'newman'), newman, { cwd: dir });
    // newman's JSON report lists an item whose pre-request script sends a request (the deletes) once more under the
    // same cursor: count each item once.
    const reported = JSON.parse(readFileSync(report, 'utf8')).run.executions as Execution[];
    const executions = [...new Map(reported.map((execution) => [execution.cursor.ref, execution])).values()];
    const assertions = executions.flatMap((execution) => (execution.assertions ?? []).map((a) => ({ ...a, request: execution.item.name })));
    const failed = assertions.filter((a) => a.error).map((a) => `${a.request}: ${a.assertion}: ${a.error!.message.slice(0, 300)}`);
    expect(failed).toEqual([]);
    expect(result.code).toBe(0);
    expect(executions).toHaveLength(contractRoutes().length);
    // status, content type, JSON body, schema, and each required header: X-Request-Id and the four RateLimit-* ones.
    expect(assertions.length).toBeGreaterThanOrEqual(executions.length * 9);
    expect(assertions.filter((a) => /RateLimit-Policy/.test(a.assertion))).toHaveLength(executions.length);
  }, 2 * SLOW_TIMEOUT_MS); // two tools in a row: Portman's conversion and a newman run of a request per route
});
