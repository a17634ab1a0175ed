import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/processes.js';

const DEPCRUISE = path.join(REPO_ROOT, 'node_modules/.bin/depcruise');
const COPIED = ['.dependency-cruiser.cjs', 'tsconfig.base.json', 'apps/server/tsconfig.json', 'apps/server/src'];

/**
 * `pnpm lint`'s layering check (.dependency-cruiser.cjs) run on a copy of the server's sources with imports added
 * (`pnpm lint` itself shows the committed sources pass): every kind of violation fails the run and is named.
 */
describe('server layering (dependency-cruiser)', () => {
  let root: string | undefined;
  afterEach(() => root && rmSync(root, { recursive: true, force: true }));

  async function cruise(addImports: Record<string, string[]>) {
    root = mkdtempSync(path.join(tmpdir(), 'switchboard-layering-'));
    for (const file of COPIED) cpSync(path.join(REPO_ROOT, file), path.join(root, file), { recursive: true });
    for (const [file, imports] of Object.entries(addImports))
      appendFileSync(path.join(root, 'apps/server/src', file), `\n${imports.join('\n')}\n`);
    try {
      const { stdout } = await promisify(execFile)(
        DEPCRUISE,
        ['--config', '.dependency-cruiser.cjs', 'apps/server/src'],
        { cwd: root },
      );
      return { ok: true, output: stdout };
    } catch (error) {
      return { ok: false, output: (error as { stdout?: string }).stdout ?? String(error) };
    }
  }

  it('fails on a cycle between two modules that no file-level check would see', async () => {
    // whatsapp imports channels (its entities' relations); channels importing whatsapp closes a loop of folders.
    const { ok, output } = await cruise({
      'modules/channels/channel.service.ts': [
        "import type { WhatsApp } from '../whatsapp/whatsapp.js';",
        'export type Probe = WhatsApp;',
      ],
    });
    expect(output).toMatch(
      /no-folder-cycles: apps\/server\/src\/modules\/channels → \s*apps\/server\/src\/modules\/whatsapp/,
    );
    expect(ok).toBe(false);
  });

  it("fails when a module, the portal or the CLI imports another module's inner file, not its index.ts", async () => {
    const { ok, output } = await cruise({
      'modules/labels/label.service.ts': [
        "import type { User } from '../users/user.entity.js';",
        'export type Probe = User;',
      ],
      'portal/root.ts': [
        "import type { Label } from '../modules/labels/label.entity.js';",
        'export type Probe = Label;',
      ],
      'cli/commands.ts': [
        "import type { Channel } from '../modules/channels/channel.entity.js';",
        'export type Probe = Channel;',
      ],
    });
    const src = 'apps/server/src';
    expect(output).toContain(
      `module-through-index: ${src}/modules/labels/label.service.ts → ${src}/modules/users/user.entity.ts`,
    );
    expect(output).toContain(
      `composition-through-index: ${src}/portal/root.ts → ${src}/modules/labels/label.entity.ts`,
    );
    expect(output).toContain(
      `composition-through-index: ${src}/cli/commands.ts → ${src}/modules/channels/channel.entity.ts`,
    );
    expect(ok).toBe(false);
  });

  it('lets a module and the portal import another module through its index.ts', async () => {
    const { ok, output } = await cruise({
      'modules/labels/label.service.ts': [
        "import type { User } from '../users/index.js';",
        'export type Probe = User;',
      ],
      'portal/root.ts': ["import type { Label } from '../modules/labels/index.js';", 'export type Probe = Label;'],
    });
    expect(output).toContain('no dependency violations found');
    expect(ok).toBe(true);
  });

  it('fails when a module imports the module list, the composition, lifecycle/ or observability/', async () => {
    const imports = [
      '../index.js',
      '../../demo.js',
      '../../index.js',
      '../../lifecycle/readiness.js',
      '../../observability/metrics.js',
    ];
    const { ok, output } = await cruise({
      'modules/labels/label.service.ts': imports.map(
        (from, i) => `import * as probe${i} from '${from}'; void probe${i};`,
      ),
    });
    for (const target of [
      'modules/index.ts',
      'demo.ts',
      'index.ts',
      'lifecycle/readiness.ts',
      'observability/metrics.ts',
    ]) {
      expect(output).toContain(
        `modules-layer: apps/server/src/modules/labels/label.service.ts → apps/server/src/${target}`,
      );
    }
    expect(ok).toBe(false);
  });

  it('fails when the core imports a module or the core imports observability/', async () => {
    const { ok, output } = await cruise({
      'http/guards.ts': [
        "import type { Label } from '../modules/labels/label.entity.js';",
        'export type Probe = Label;',
      ],
      'jobs/retry.ts': ["import type { Metrics } from '../observability/metrics.js';", 'export type Probe = Metrics;'],
    });
    expect(output).toContain(
      'http-layer: apps/server/src/http/guards.ts → apps/server/src/modules/labels/label.entity.ts',
    );
    expect(output).toContain('jobs-layer: apps/server/src/jobs/retry.ts → apps/server/src/observability/metrics.ts');
    expect(ok).toBe(false);
  });
});
