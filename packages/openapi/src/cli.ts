#!/usr/bin/env node
import path from 'node:path';
import { Command } from 'commander';
import { writeApiFiles } from './files.js';
import { DEFAULT_SERVER_URL } from './openapi.js';

// pnpm runs root scripts from the repository root, so the default lands in <repo>/dist/api/.
const program = new Command('export:api')
  .description(
    'Write openapi.json, openapi.yaml, postman_collection.json and switchboard.postman_environment.json generated ' +
      'from the API contract.',
  )
  .option('-o, --out <dir>', 'output directory', 'dist/api')
  .option(
    '-s, --server <url>',
    'server root the definition (servers, contact, license) and the Postman baseUrl point at',
    DEFAULT_SERVER_URL,
  )
  .action(async (options: { out: string; server: string }) => {
    const files = await writeApiFiles(path.resolve(options.out), { serverUrl: options.server });
    for (const file of files) console.log(`wrote ${path.relative(process.cwd(), file) || file}`);
  });

program.parseAsync().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
