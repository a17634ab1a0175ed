import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../helpers/processes.js';

// Docker cannot build on our CI machines (bundle.test.ts builds the same bundle outside Docker); these read the
// files themselves, so a change that drops one of the promised properties fails here.

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions per stage (continuation lines joined, comments dropped). */
function dockerfileStages(text: string): Instruction[][] {
  const lines = text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stages: Instruction[][] = [];
  for (const line of lines) {
    const [keyword, ...rest] = line.split(/\s+/);
    const instruction = { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

describe('Dockerfile', () => {
  const stages = dockerfileStages(readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8'));
  const runtime = stages.at(-1)!;
  const args = (stage: Instruction[], keyword: string) => stage.filter((i) => i.keyword === keyword).map((i) => i.args);

  it('builds in one stage and runs in another that copies only the pruned production bundle', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const build = stages.slice(0, -1).flat();
    expect(args(build, 'RUN').join('\n')).toMatch(/scripts\/bundle-server \/bundle/);
    expect(readFileSync(path.join(REPO_ROOT, 'scripts/bundle-server'), 'utf8')).toMatch(
      /^pnpm --filter @switchboard\/server deploy (--legacy )?--prod "\$target"$/m,
    );
    expect(args(runtime, 'COPY')).toEqual([expect.stringMatching(/^--from=build .*\/bundle \/app$/)]);
  });

  it('builds without turbo telemetry', () => {
    const build = stages.slice(0, -1).flat();
    const turboAt = build.findIndex((i) => i.keyword === 'RUN' && /turbo run/.test(i.args));
    expect(turboAt).toBeGreaterThan(-1);
    expect(
      build.slice(0, turboAt).some((i) => i.keyword === 'ENV' && /\bTURBO_TELEMETRY_DISABLED=1\b/.test(i.args)),
    ).toBe(true);
  });

  it('runs as a non-root user, with a HEALTHCHECK on /readyz, Node as PID 1', () => {
    const users = args(runtime, 'USER');
    expect(users).toHaveLength(1);
    expect(users[0]).not.toMatch(/^(root|0)(:|$)/);
    expect(args(runtime, 'HEALTHCHECK')).toEqual([expect.stringMatching(/CMD .*\/readyz/)]);
    expect(args(runtime, 'CMD')).toEqual([expect.stringMatching(/^\["node",.*"dist\/main\.js"\]$/)]);
  });
});

describe('compose.yaml', () => {
  interface Service {
    image?: string;
    command?: string[];
    environment?: Record<string, string>;
    deploy?: { replicas?: number };
    depends_on?: Record<string, { condition: string }>;
  }
  const compose = parse(readFileSync(path.join(REPO_ROOT, 'compose.yaml'), 'utf8')) as {
    services: Record<string, Service>;
  };
  const { services } = compose;

  it('runs PostgreSQL, Redis, a one-shot migrate service and two API replicas', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'migrate', 'postgres', 'redis']);
    expect(services.api!.deploy?.replicas).toBe(2);
    expect(services.migrate!.command).toEqual(['node', 'dist/cli/index.js', 'migrate']);
    expect(services.migrate!.image).toBe(services.api!.image);
  });

  it('starts the API only after the migration completed, and the API never migrates itself', () => {
    expect(services.api!.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    expect(services.migrate!.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
    expect(services.api!.environment).toMatchObject({
      NODE_ENV: 'production',
      DATABASE_URL: expect.stringMatching(/^postgres:\/\/.*@postgres:5432\//),
    });
    expect(services.api!.environment).not.toHaveProperty('MIGRATE_ON_START');
    expect(services.api!.environment).not.toHaveProperty('DEMO');
  });
});
