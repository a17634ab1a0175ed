import { readFile } from 'node:fs/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Command, Option } from 'commander';
import { isUuid, WEBHOOK_EVENT_TYPES, webhookEventsProblem, webhookManageParams } from '@switchboard/contract';
import { seedDemoIfEmpty } from '../demo.js';
import { AppError, ValidationError } from '../kit/errors.js';
import { createApiKey, revokeApiKey } from '../modules/api-keys/index.js';
import { Platform } from '../modules/platforms/index.js';
import { hashPassword, User } from '../modules/users/index.js';
import { WEBHOOK_POLICY } from '../modules/webhook-transport/index.js';
import {
  manageEndpoint,
  rekeyWebhookSecrets,
  WEBHOOK_SECRET_PATTERN,
  WEBHOOK_SECRETS,
} from '../modules/webhooks/index.js';
import { rekeyWhatsAppSecrets } from '../modules/whatsapp/index.js';
import { seed } from '../wiring.js';
import { CliError, runCommand } from './context.js';
import { addSandboxCommands } from './sandbox-commands.js';
import { addSandboxHealthCommands } from './sandbox-health-commands.js';
import { addWhatsAppCommands } from './whatsapp-commands.js';

async function findUser(em: EntityManager, email: string, platform?: string): Promise<User> {
  const users = await em.find(User, { email: email.toLowerCase() }, { populate: ['platform'] });
  const matches = platform ? users.filter((u) => u.platform.id === platform || u.platform.domain === platform) : users;
  if (matches.length === 0)
    throw new CliError(`No user with email ${email}${platform ? ` in platform ${platform}` : ''}.`);
  if (matches.length > 1) throw new CliError(`Several platforms have a user ${email}; pass --platform <id or domain>.`);
  return matches[0]!;
}

async function findPlatform(em: EntityManager, idOrDomain: string): Promise<Platform> {
  const platform = await em.findOne(Platform, isUuid(idOrDomain) ? { id: idOrDomain } : { domain: idOrDomain });
  if (!platform) throw new CliError(`No platform ${idOrDomain}.`);
  return platform;
}

/** migrate, seed, seed:demo. */
function addDatabaseCommands(program: Command): void {
  program
    .command('migrate')
    .description('Apply pending database migrations')
    .action(() => runCommand(async (_em, { appliedMigrations }) => ({ applied: appliedMigrations })));

  program
    .command('seed')
    .description('Create everything a seed file describes, in one transaction, and print what each ref became')
    .argument('<file>', 'seed file (JSON)')
    .action((file: string) =>
      runCommand(async (em, { services, jobs }) => {
        const text = await readFile(file, 'utf8').catch(() => {
          throw new CliError(`Cannot read ${file}.`);
        });
        let input: unknown;
        try {
          input = JSON.parse(text);
        } catch (error) {
          throw new CliError(`${file} is not valid JSON: ${(error as Error).message}`);
        }
        return seed(em, input, await services(), await jobs());
      }),
    );

  program
    .command('seed:demo')
    .description('Load the demo platform (owner password switchboard-demo, an API key) into an empty database')
    .action(() =>
      runCommand(async (em) => {
        const demo = await seedDemoIfEmpty(em);
        if (!demo)
          throw new CliError('The database already has a platform; the demo data only goes into an empty database.');
        return demo;
      }),
    );
}

/** key create, key revoke. */
function addKeyCommands(program: Command): void {
  const key = program.command('key').description('Manage API keys');
  key
    .command('create')
    .description('Create an API key for a user; the key is printed once')
    .requiredOption('--email <email>', 'the user’s email')
    .option('--name <name>', 'a name for the key', 'cli')
    .option('--platform <idOrDomain>', 'the user’s platform, when the email exists in several')
    .action((opts: { email: string; name: string; platform?: string }) =>
      runCommand(async (em) => {
        const created = await createApiKey({ em }, (await findUser(em, opts.email, opts.platform)).id, opts.name);
        return { id: created.id, prefix: created.prefix, apiKey: created.apiKey };
      }),
    );
  key
    .command('revoke')
    .description('Revoke an API key by its prefix (as printed by key create); it gets 401 at once')
    .requiredOption('--prefix <prefix>', 'the key prefix, e.g. sb_live_AbCd1234')
    .action((opts: { prefix: string }) => runCommand((em) => revokeApiKey({ em }, opts.prefix)));
}

/** webhook add. */
function addWebhookCommands(program: Command): void {
  const webhook = program.command('webhook').description('Manage webhook endpoints');
  webhook
    .command('add')
    .description('Add a webhook endpoint to a platform')
    .requiredOption('--platform <idOrDomain>', 'platform id or domain')
    .requiredOption('--url <url>', 'https:// URL receiving the events (public addresses only, as webhooks/manage)')
    .option('--secret <whsec>', 'Standard Webhooks secret (whsec_<base64>); generated when omitted')
    .addOption(
      new Option('--events <events...>', `event types: ${WEBHOOK_EVENT_TYPES.join(', ')}`).default(['ticket.closed']),
    )
    .action((opts: { platform: string; url: string; secret?: string; events: string[] }) =>
      runCommand(async (em, { services }) => {
        if (opts.secret && !WEBHOOK_SECRET_PATTERN.test(opts.secret))
          throw new CliError('--secret must be whsec_ followed by base64.');
        const eventsProblem = webhookEventsProblem(opts.events);
        if (eventsProblem) throw new CliError(`--events: ${eventsProblem}.`);
        const platform = await findPlatform(em, opts.platform);
        // webhooks/manage's own rules: the contract's parameters, then https and the SSRF guard (ALLOW_HTTP_WEBHOOKS).
        const params = webhookManageParams.safeParse({
          platformId: platform.id,
          action: 'create',
          url: opts.url,
          events: opts.events,
        });
        if (!params.success || params.data.action !== 'create')
          throw new CliError(
            (params.error?.issues ?? []).map((issue) => `--${issue.path.join('.')}: ${issue.message}`).join('; '),
          );
        const started = await services();
        const deps = { policy: started.get(WEBHOOK_POLICY), secrets: started.get(WEBHOOK_SECRETS) };
        const { data } = await manageEndpoint({ em }, platform.id, params.data, deps, opts.secret).catch(
          (error: unknown) => {
            if (error instanceof ValidationError)
              throw new CliError(error.issues.map((issue) => `--${issue.field}: ${issue.problem}`).join('; '));
            if (error instanceof AppError && error.status === 400) throw new CliError(error.message);
            throw error;
          },
        );
        return { id: data.id, platformId: platform.id, url: data.url, events: data.events, secret: data.secret };
      }),
    );
}

/** secrets rekey. */
function addSecretsCommands(program: Command): void {
  program
    .command('secrets')
    .description('Stored secrets and SECRETS_KEY')
    .command('rekey')
    .description(
      'Re-encrypt every stored secret with SECRETS_KEY (after a rotation: the replaced key in SECRETS_KEY_PREVIOUS) ' +
        'and print how many values were re-encrypted and how many were current already',
    )
    .action(() =>
      runCommand(async (em, { secrets }) => {
        if (!secrets) throw new CliError('SECRETS_KEY is not set: there is no key to re-encrypt with.');
        return {
          keyId: secrets.keyId,
          webhookEndpoints: await rekeyWebhookSecrets(em, secrets),
          whatsappChannels: await rekeyWhatsAppSecrets(em, secrets),
        };
      }),
    );
}

/** user set-password. */
function addUserCommands(program: Command): void {
  const user = program.command('user').description('Manage users');
  user
    .command('set-password')
    .description('Set a user’s Developer Portal password (read from --password or stdin)')
    .requiredOption('--email <email>', 'the user’s email')
    .option('--platform <idOrDomain>', 'the user’s platform, when the email exists in several')
    .option('--password <password>', 'the new password (at least 8 characters); stdin when omitted')
    .action((opts: { email: string; platform?: string; password?: string }) =>
      runCommand(async (em) => {
        const password = opts.password ?? (await readStdin()).trim();
        if (password.length < 8) throw new CliError('The password must be at least 8 characters.');
        const target = await findUser(em, opts.email, opts.platform);
        target.passwordHash = await hashPassword(password);
        await em.flush();
        return { id: target.id, email: target.email, passwordSet: true };
      }),
    );
}

export function buildCli(): Command {
  const program = new Command('switchboard')
    .description('Switchboard admin CLI. Prints JSON on stdout; logs go to stderr.')
    .showHelpAfterError();

  addDatabaseCommands(program);
  addKeyCommands(program);
  addWebhookCommands(program);
  addUserCommands(program);
  addWhatsAppCommands(program);
  addSandboxCommands(program);
  addSandboxHealthCommands(program);
  addSecretsCommands(program);
  return program;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
