import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EXAMPLE_IDS } from '@switchboard/contract';
import { buildOpenApi, portmanPreRequestScripts, withoutStreams } from '@switchboard/openapi';
import { describe, expect } from 'vitest';
import { REPO_ROOT } from '../helpers/processes.js';
import { test } from '../helpers/test.js';
import { run, runOk, SLOW_TIMEOUT_MS } from '../sdk/commands.js';
import { demoVariables, demoWebhookEndpointId, singleChannelDemo } from './demo-ids.js';
import { conditionalQueryOverwrites, withClosedObjects } from './portman-config.js';
import { contractRoutes } from './routes.js';

const BIN = path.join(REPO_ROOT, 'tests/node_modules/.bin');
const PORTMAN_PACKAGE = path.join(REPO_ROOT, 'tests/node_modules/@apideck/portman');

interface Assertion {
  assertion: string;
  error?: { message: string };
}
interface Folder {
  item: { name: string; event: { listen: string; script: { exec: string[] } }[] }[];
}
interface Execution {
  cursor: { ref: string };
  item: { name: string };
  assertions?: Assertion[];
}

/**
 * Portman (https://github.com/apideck-libraries/portman) turns openapi.json into contract tests: status 2xx, JSON
 * content type, a JSON body, the body against the response schema, and every `required` response header. Its own
 * default config file is used as it ships, with only what a run against a real tenant needs: the seeded tenant's ids
 * in place of the definition's sample ids (rawReplacements), a fresh Idempotency-Key per write, the pre-request
 * scripts of the deletes (each creates what its request deletes, as in the exported Postman collection), and on GET
 * the parameters the definition says are needed in some cases only (conditionalQueryOverwrites). Schemas are
 * checked strictly: Portman reads a copy of the definition with every object closed (withClosedObjects).
 * Portman reads only local files here: the definition and its two bundled default config files.
 */
describe('Portman contract tests generated from openapi.json, run by newman against the live server', () => {
  let dir: string;
  let variables: ReturnType<typeof demoVariables>;

  test.beforeAll(async ({ server }) => {
    variables = demoVariables(server.baseUrl, await server.seed(singleChannelDemo));
    dir = mkdtempSync(path.join(tmpdir(), 'switchboard-portman-'));
    const doc = buildOpenApi({ serverUrl: server.baseUrl });
    // The event stream has no end for newman to wait for: it is tested in tests/event-stream/event-stream.test.ts.
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(withClosedObjects(withoutStreams(doc))));
    const defaults = JSON.parse(readFileSync(path.join(PORTMAN_PACKAGE, 'portman-config.default.json'), 'utf8'));
    const { platformId, channelId, userId, addonId, ticketId, automationId } = variables;
    // contactId, broadcastId, scheduledMsgid: set by the pre-request scripts of contacts/delete, broadcasts/manage
    // (broadcasts/recipients after it reads that broadcast) and chat/message/cancel.
    const ids = {
      platformId,
      channelId,
      userId,
      addonId,
      ticketId,
      automationId,
      contactId: '{{contactId}}',
      broadcastId: '{{broadcastId}}',
      scheduledMsgid: '{{scheduledMsgid}}',
      webhookEndpointId: await demoWebhookEndpointId(server, variables),
    };
    const rawReplacements = Object.entries(ids).map(([name, id]) => ({
      searchFor: EXAMPLE_IDS[name as keyof typeof ids],
      replaceWith: id,
    }));
    const overwrites = [
      // A fresh Idempotency-Key per request (Postman's {{$guid}}), as the generated collection does: the definition's
      // header has no example, and one made-up value shared by every write would be 422 idempotency_key_reused.
      {
        openApiOperation: '*::/*',
        overwriteRequestHeaders: [{ key: 'Idempotency-Key', value: '{{$guid}}', overwrite: true }],
      },
      // Overwritten values come after Portman's rawReplacements: they get the seeded ids here.
      ...conditionalQueryOverwrites(
        JSON.parse(
          rawReplacements.reduce(
            (text, { searchFor, replaceWith }) => text.replaceAll(searchFor, replaceWith),
            JSON.stringify(doc),
          ),
        ),
      ),
    ];
    const config = {
      ...defaults,
      overwrites,
      operationPreRequestScripts: portmanPreRequestScripts(),
      globals: { ...defaults.globals, rawReplacements },
    };
    writeFileSync(path.join(dir, 'portman-config.json'), JSON.stringify(config));
  });
  test.afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test(
    'every generated assertion passes, headers included',
    async () => {
      const args = [
        '-l',
        'openapi.json',
        '-b',
        variables.baseUrl,
        '-c',
        'portman-config.json',
        '-o',
        'portman.postman_collection.json',
      ];
      await runOk(path.join(BIN, 'portman'), args, { cwd: dir });
      const report = path.join(dir, 'report.json');
      const newman = [
        'run',
        'portman.postman_collection.json',
        '--env-var',
        `apiKey=${variables.apiKey}`,
        // What the setups read from variables (in the collection, lookups and earlier requests fill them): the
        // demo's template, automation and customer's photo, as the ids written into the requests.
        '--env-var',
        `templateName=${EXAMPLE_IDS.templateName}`,
        '--env-var',
        `automationId=${variables.automationId}`,
        '--env-var',
        `photoMsgid=${EXAMPLE_IDS.photoMsgid}`,
        '--reporters',
        'json',
        '--reporter-json-export',
        report,
      ];
      const result = await run(path.join(BIN, 'newman'), newman, { cwd: dir });
      // newman's JSON report lists an item whose pre-request script sends a request (the deletes) once more under the
      // same cursor: count each item once.
      const reported = JSON.parse(readFileSync(report, 'utf8')).run.executions as Execution[];
      const executions = [...new Map(reported.map((execution) => [execution.cursor.ref, execution])).values()];
      const assertions = executions.flatMap((execution) =>
        (execution.assertions ?? []).map((a) => ({ ...a, request: execution.item.name })),
      );
      const failed = assertions
        .filter((a) => a.error)
        .map((a) => `${a.request}: ${a.assertion}: ${a.error!.message.slice(0, 300)}`);
      expect(failed).toEqual([]);
      expect(result.code).toBe(0);
      expect(executions).toHaveLength(contractRoutes().length);
      // status, content type, JSON body, schema, and each required header: X-Request-Id and the four RateLimit-* ones.
      expect(assertions.length).toBeGreaterThanOrEqual(executions.length * 9);
      expect(assertions.filter((a) => /RateLimit-Policy/.test(a.assertion))).toHaveLength(executions.length);
      console.info(
        `Portman contract tests: ${assertions.length} assertions over ${executions.length} requests, all passed`,
      );
      // The schema checks are strict: each object of a reply may hold only its named properties, maps keep their
      // values' schema.
      const contactsList = (
        JSON.parse(readFileSync(path.join(dir, 'portman.postman_collection.json'), 'utf8')) as { item: Folder[] }
      ).item
        .flatMap((folder) => folder.item)
        .find((item) => item.name.startsWith('List contacts of a channel, paginated') && !item.name.endsWith('(GET)'))!;
      const script = contactsList.event.find((event) => event.listen === 'test')!.script.exec.join('\n');
      expect(script).toContain('"additionalProperties":false');
      expect(script).toMatch(/"customFields":\{"type":"object","additionalProperties":\{"oneOf"/);
    },
    2 * SLOW_TIMEOUT_MS,
  ); // two tools in a row: Portman's conversion and a newman run of a request per route
});
