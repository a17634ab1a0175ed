import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { demoSeed, type SeedResult } from '@switchboard/server';
import { writeApiFiles } from '@switchboard/openapi';
import { describe, expect } from 'vitest';
import { REPO_ROOT } from '../helpers/processes.js';
import { test } from '../helpers/test.js';
import { run, SLOW_TIMEOUT_MS } from '../sdk/commands.js';
import { contractRoutes } from './routes.js';

const NEWMAN = path.join(REPO_ROOT, 'tests/node_modules/.bin/newman');

/** A Postman environment with the values the collection's variables need, taken from what the demo seed created. */
function demoEnvironment(baseUrl: string, ids: SeedResult) {
  const values = {
    baseUrl,
    apiKey: ids.users!.owner!.apiKey!,
    platformId: ids.platforms!.demo!,
    channelId: ids.channels!.support!,
    userId: ids.users!.owner!.id,
    addonId: ids.plans!.seats!,
  };
  return { name: 'Switchboard demo', values: Object.entries(values).map(([key, value]) => ({ key, value, type: 'default', enabled: true })) };
}

interface NewmanExecution {
  item: { name: string };
  request: { method: string; url: { path: string[] } };
  response?: { code: number; stream?: { data: number[] } };
  requestError?: { message: string };
}

describe('the Postman collection, run by newman against the seeded demo', () => {
  let dir: string;

  test.beforeAll(async ({ server }) => {
    const ids = await server.seed(demoSeed);
    dir = mkdtempSync(path.join(tmpdir(), 'switchboard-newman-'));
    await writeApiFiles(dir, { serverUrl: server.baseUrl });
    writeFileSync(path.join(dir, 'demo.postman_environment.json'), JSON.stringify(demoEnvironment(server.baseUrl, ids)));
  });
  test.afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('gets a 2xx for every request of the collection', async () => {
    const report = path.join(dir, 'report.json');
    const args = ['run', 'postman_collection.json', '-e', 'demo.postman_environment.json', '--reporters', 'cli,json', '--reporter-json-export', report, '--color', 'off'];
    const result = await run(NEWMAN, args, { cwd: dir });
    expect(existsSync(report), `newman did not run:\n${result.stdout}\n${result.stderr}`).toBe(true);
    const executions = (JSON.parse(readFileSync(report, 'utf8')).run.executions as NewmanExecution[]).map((execution) => ({
      route: `${execution.request.method} /${execution.request.url.path.join('/')}`,
      status: execution.response?.code ?? execution.requestError?.message,
      reply: execution.response?.stream ? Buffer.from(execution.response.stream.data).toString().slice(0, 300) : undefined,
    }));
    const failed = executions.filter((execution) => typeof execution.status !== 'number' || execution.status < 200 || execution.status > 299);
    expect(failed, `newman output:\n${result.stdout.slice(-3000)}`).toEqual([]);
    expect(executions.map((execution) => execution.route).sort()).toEqual(contractRoutes().map((route) => `${route.method} ${route.path}`).sort());
    expect(result.code).toBe(0);
  }, SLOW_TIMEOUT_MS);
});
