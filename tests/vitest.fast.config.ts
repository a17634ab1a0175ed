import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The fast lane (`pnpm test:fast`), for the edit–test loop: every end-to-end suite that runs the server in-process,
 * without the suites below. `pnpm test` (CI, README) still runs everything.
 */
const SLOW_SUITES = {
  'spawn a process (the built server, the CLI, pnpm, npm, a browser or a linter)': [
    'sandbox/sandbox-cli.test.ts',
    'export/newman.test.ts',
    'export/openapi-client.test.ts',
    'export/openapi.test.ts',
    'export/portman.test.ts',
    'foundation/api-key-cache.test.ts',
    'foundation/cli.test.ts',
    'foundation/layering.test.ts',
    'foundation/lifecycle.test.ts',
    'mcp/agent-session.test.ts',
    'mcp/inspector.test.ts',
    'mcp/mcp-stdio.test.ts',
    'ops/bundle.test.ts',
    'ops/http-manners.test.ts',
    'ops/job-worker-switch.test.ts',
    'ops/process-failures.test.ts',
    'ops/safe-defaults.test.ts',
    'ops/start-command.test.ts',
    'portal/portal-browser.test.ts',
    'sdk/generated-types.test.ts',
    'sdk/package.test.ts',
    'sdk/readme-snippets.test.ts',
    'whatsapp/connect.test.ts',
    'whatsapp/secrets.test.ts',
    'whatsapp/template-sync.test.ts',
  ],
  'take a dependency down, kill a server or hold connections until timeouts fire': [
    'hostile/caller-cache-listener.test.ts',
    'hostile/database-limits.test.ts',
    'hostile/database-outage.test.ts',
    'hostile/redis-outage.test.ts',
    'tickets/ticket-closed-crash.test.ts',
    'webhooks/webhook-crash.test.ts',
    'whatsapp-inbound/inbound-crash.test.ts',
    'automations/automations-crash.test.ts',
    'broadcasts/broadcasts-crash.test.ts',
    'broadcasts/broadcasts-outage.test.ts',
  ],
  'fuzz every endpoint with 300 property-based cases (fewer would not reach a success on every endpoint)': [
    'hostile/fuzz.test.ts',
  ],
  'deliver thousands of webhooks to measure throughput, or wait out rounds of timeouts': [
    'webhooks/webhook-throughput.test.ts',
  ],
  'seed 100,000 contacts or messages, or wait for a schedule': [
    'conversations/conversations-plans.test.ts',
    'hostile/portal-event-tail.test.ts',
    'contacts/contacts-plans.test.ts',
    'whatsapp/template-sync-schedule.test.ts',
  ],
};

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: Object.values(SLOW_SUITES).flat(),
      // Suites share one process per worker instead of re-importing the server's module graph for every file (most
      // of a small suite's time). Safe because no module keeps mutable state; `pnpm test` still isolates each file.
      isolate: false,
    },
  }),
);
