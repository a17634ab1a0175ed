import { readFileSync } from 'node:fs';
import path from 'node:path';
import { demoSeed } from '@switchboard/server';
import { transform } from 'esbuild';
import { describe, expect } from 'vitest';
import { README_FILE } from '../../packages/client/scripts/readme.js';
import { demoVariables } from '../export/demo-ids.js';
import { REPO_ROOT } from '../helpers/processes.js';
import { test } from '../helpers/test.js';
import { buildPackage, run, SLOW_TIMEOUT_MS } from './commands.js';
import { snippetDiagnostics, typeScriptSnippets, type Snippet } from './snippets.js';

/**
 * Every TypeScript snippet of the SDK's README, as a reader copies it: type-checked against the built package under
 * the strictest options, then run against a live demo server.
 *
 * The snippets run as written: they read the server root from `SWITCHBOARD_URL` and the key from
 * `SWITCHBOARD_API_KEY` (the variables examples/ reads) and look up the ids they need through the API, so the test
 * sets those two variables and changes no code. A block opened with ```ts compile-only is type-checked but not run:
 * it only makes sense inside a deployment (a webhook receiver listening until stopped). Both happen in the examples
 * package, an integrator's project that has the SDK (its dist/) and Express installed.
 */
const PROJECT = path.join(REPO_ROOT, 'examples');
const snippets = typeScriptSnippets(readFileSync(README_FILE, 'utf8'));
const runnable = snippets.filter((snippet) => !snippet.compileOnly);

/** Under the test's timeout: a snippet that never ends is killed and fails with its output, leaving no process. */
const RUN_TIMEOUT_MS = 20_000;

/** Runs a snippet as an ES module of PROJECT in a fresh Node process, the types stripped as a reader's tooling does. */
async function runSnippet({ code }: Snippet, env: Record<string, string>) {
  const { code: script } = await transform(code, { loader: 'ts', format: 'esm', target: 'node20' });
  return run(process.execPath, ['--input-type=module', '--eval', script], {
    cwd: PROJECT,
    env,
    timeoutMs: RUN_TIMEOUT_MS,
  });
}

describe('the SDK README’s TypeScript snippets', () => {
  let env: Record<string, string>;

  test.beforeAll(async ({ server }) => {
    await buildPackage('@switchboard/client');
    const { apiKey } = demoVariables(server.baseUrl, await server.seed(demoSeed));
    env = { SWITCHBOARD_URL: server.baseUrl, SWITCHBOARD_API_KEY: apiKey };
  }, SLOW_TIMEOUT_MS);

  test('are found, and only the webhook receiver is compile-only', () => {
    expect(runnable.length).toBeGreaterThan(0);
    expect(snippets.filter((snippet) => snippet.compileOnly).map((snippet) => snippet.heading)).toEqual(['Webhooks']);
  });

  test(
    'compile under strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess against the built SDK',
    () => {
      expect(snippetDiagnostics(PROJECT, snippets)).toEqual([]);
    },
    SLOW_TIMEOUT_MS,
  );

  test.for(runnable)('$name runs against the demo server and prints its result', async (snippet) => {
    const { code, stdout, stderr } = await runSnippet(snippet, env);
    expect({ code, stderr }, stdout).toEqual({ code: 0, stderr: '' });
    expect(stdout.trim()).not.toBe('');
  });
});
