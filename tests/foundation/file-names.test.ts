import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/processes.js';

/**
 * The file-role suffixes of the server: `<name>.<role>.ts` says what a file is; any other file has a plain
 * kebab-case name. `.port`/`.provider`: an interface a lower module declares and the higher module that fills it
 * (the module DAG forbids the direct import), and the messaging providers behind messages' port. `.sql`: a module's
 * functions and triggers, which the migrations apply (kit/sql-definitions.ts).
 */
const ROLES = ['entity', 'service', 'router', 'seed', 'queries', 'port', 'provider', 'sql'];

describe('server file names', () => {
  it('carry a role suffix from the agreed set, or none', () => {
    const src = path.join(REPO_ROOT, 'apps/server/src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    const odd = files.filter((file) => {
      const parts = path
        .basename(file, '.ts')
        .replace(/\.test$/, '')
        .split('.');
      return parts.length > 2 || (parts.length === 2 && !ROLES.includes(parts[1]!));
    });
    expect(files.length).toBeGreaterThan(100);
    expect(odd).toEqual([]);
  });
});
