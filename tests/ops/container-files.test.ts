import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Cmd, Copy, DockerfileParser, Env, Healthcheck, type From, type Instruction } from 'dockerfile-ast';
import { parse } from 'yaml';
import { REPO_ROOT } from '../helpers/processes.js';

// Docker cannot build on our CI machines (no daemon; bundle.test.ts builds the same bundle outside Docker): these read
// the files themselves, the Dockerfile through dockerfile-ast (the parser of the Docker language server), so a change
// that drops one of the promised properties fails here.

/** The Dockerfile's instructions per build stage (each FROM starts one). */
function dockerfileStages(text: string): Instruction[][] {
  const stages: Instruction[][] = [];
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    if (instruction.getKeyword() === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

const words = (instruction: Instruction) => instruction.getArguments().map((argument) => argument.getValue());
const ofKind = <T extends Instruction>(stage: Instruction[], kind: abstract new (...args: never[]) => T): T[] =>
  stage.filter((instruction): instruction is T => instruction instanceof kind);

describe('Dockerfile', () => {
  const stages = dockerfileStages(readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8'));
  const build = stages.slice(0, -1).flat();
  const runtime = stages.at(-1)!;

  it('builds in one stage and runs in another that copies only the pruned production bundle', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const buildStage = (stages[0]![0] as From).getBuildStage();
    const runs = build.filter((instruction) => instruction.getKeyword() === 'RUN').map((run) => words(run).join(' '));
    expect(runs.some((run) => run.endsWith('&& scripts/bundle-server /bundle'))).toBe(true);
    expect(readFileSync(path.join(REPO_ROOT, 'scripts/bundle-server'), 'utf8')).toMatch(
      /^pnpm --filter @switchboard\/server deploy (--legacy )?--prod "\$target"$/m,
    );
    const copies = ofKind(runtime, Copy);
    expect(copies).toHaveLength(1);
    const flags = Object.fromEntries(copies[0]!.getFlags().map((flag) => [flag.getName(), flag.getValue()]));
    expect(flags).toEqual({ from: buildStage, chown: 'node:node' });
    expect(words(copies[0]!)).toEqual(['/bundle', '/app']);
  });

  it('builds without turbo telemetry', () => {
    const turboAt = build.findIndex((i) => i.getKeyword() === 'RUN' && words(i).join(' ').includes('turbo run'));
    expect(turboAt).toBeGreaterThan(-1);
    const env = ofKind(build.slice(0, turboAt), Env).flatMap((instruction) => instruction.getProperties());
    expect(env.map((property) => [property.getName(), property.getValue()])).toContainEqual([
      'TURBO_TELEMETRY_DISABLED',
      '1',
    ]);
  });

  it('runs as a non-root user, with a HEALTHCHECK on /readyz, Node as PID 1', () => {
    const users = runtime.filter((instruction) => instruction.getKeyword() === 'USER').map(words);
    expect(users).toHaveLength(1);
    expect(users[0]![0]).not.toMatch(/^(root|0)(:|$)/);
    const checks = ofKind(runtime, Healthcheck);
    expect(checks).toHaveLength(1);
    expect(checks[0]!.getSubcommand()?.getValue()).toBe('CMD');
    expect(words(checks[0]!).join(' ')).toMatch(/\/readyz/);
    const commands = ofKind(runtime, Cmd);
    expect(commands).toHaveLength(1);
    // The exec (JSON) form: no shell in between, so Node is PID 1 and gets SIGTERM itself.
    const argv = commands[0]!.getJSONStrings().map((argument) => argument.getJSONValue());
    expect(argv[0]).toBe('node');
    expect(argv.at(-1)).toBe('dist/main.js');
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
