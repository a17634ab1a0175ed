import type { EntityManager } from '@mikro-orm/postgresql';
import { QUALITY_RATINGS, TEMPLATE_STATUSES, type QualityRating, type TemplateStatus } from '@switchboard/contract';
import type { Command } from 'commander';
import { pauseTemplateBroadcasts } from '../modules/broadcasts/index.js';
import { Channel } from '../modules/channels/index.js';
import { applyTemplateChange, Template } from '../modules/templates/index.js';
import { applyChannelHealth } from '../modules/whatsapp/index.js';
import { CliError, runCommand } from './context.js';
import { channelIdOption } from './options.js';

const oneOf = <T extends string>(values: readonly T[], value: string | undefined, flag: string): T | undefined => {
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value))
    throw new CliError(`${flag} must be one of ${values.join(', ')}.`);
  return value as T;
};

async function sandboxChannel(em: EntityManager, id: string): Promise<string> {
  const channelId = channelIdOption(id);
  const channel = await em.findOne(Channel, channelId, { fields: ['provider'] });
  if (!channel) throw new CliError(`No channel ${channelId}.`);
  if (channel.provider !== 'sandbox')
    throw new CliError('This channel is connected to Meta: Meta reports its templates’ and number’s changes.');
  return channelId;
}

/**
 * `sandbox template-status` and `sandbox quality`: what Meta's template and number webhooks report, played on a
 * sandbox channel through the same code (template.updated, channel.updated; a paused or disabled template pauses its
 * broadcasts).
 */
export function addSandboxHealthCommands(program: Command): void {
  const sandbox = program.commands.find((command) => command.name() === 'sandbox');
  if (!sandbox) throw new Error('the sandbox command must be added first');
  addTemplateStatusCommand(sandbox);
  addQualityCommand(sandbox);
}

function addTemplateStatusCommand(sandbox: Command): void {
  sandbox
    .command('template-status')
    .description(
      'Change a sandbox template’s status (or quality) as Meta’s template webhooks would, and print the outcome.',
    )
    .requiredOption('--channel <id>', 'the sandbox channel id')
    .requiredOption('--template <name>', 'the template’s name')
    .option('--language <code>', 'its language, when the name exists in several')
    .option('--status <status>', TEMPLATE_STATUSES.join(' | '))
    .option('--quality <quality>', QUALITY_RATINGS.join(' | '))
    .option('--reason <text>', 'Meta’s reason, e.g. for a rejection or a pause')
    .action(
      (opts: {
        channel: string;
        template: string;
        language?: string;
        status?: string;
        quality?: string;
        reason?: string;
      }) =>
        runCommand(async (em) => {
          const status = oneOf<TemplateStatus>(TEMPLATE_STATUSES, opts.status, '--status');
          const quality = oneOf<QualityRating>(QUALITY_RATINGS, opts.quality, '--quality');
          if (!status && !quality) throw new CliError('Give --status or --quality.');
          const channelId = await sandboxChannel(em, opts.channel);
          const templates = await em.find(Template, {
            channel: channelId,
            name: opts.template,
            ...(opts.language ? { language: opts.language } : {}),
          });
          if (templates.length === 0) throw new CliError(`No template "${opts.template}" in this channel.`);
          if (templates.length > 1)
            throw new CliError(`--language is required: "${opts.template}" exists in several languages.`);
          const change = {
            channelId,
            name: templates[0]!.name,
            language: templates[0]!.language,
            ...(status ? { status } : {}),
            ...(quality ? { quality } : {}),
            ...(opts.reason ? { reason: opts.reason } : {}),
          };
          const { outcome, pausedBroadcasts } = await em.transactional(async (tx) => {
            const applied = await applyTemplateChange(tx, change);
            const paused = applied === 'changed' ? await pauseTemplateBroadcasts(tx, change) : 0;
            return { outcome: applied, pausedBroadcasts: paused };
          });
          return { channelId, template: opts.template, outcome, pausedBroadcasts };
        }),
    );
}

function addQualityCommand(sandbox: Command): void {
  sandbox
    .command('quality')
    .description('Change a sandbox channel’s quality rating and messaging tier as Meta’s number webhook would.')
    .requiredOption('--channel <id>', 'the sandbox channel id')
    .option('--quality <quality>', QUALITY_RATINGS.join(' | '))
    .option('--limit <tier>', 'Meta’s tier as Meta sends it, e.g. TIER_1K')
    .action((opts: { channel: string; quality?: string; limit?: string }) =>
      runCommand(async (em) => {
        const quality = oneOf<QualityRating>(QUALITY_RATINGS, opts.quality, '--quality');
        if (opts.limit !== undefined && !/^[A-Z0-9_]{1,40}$/.test(opts.limit))
          throw new CliError('--limit must be a tier as Meta writes it, e.g. TIER_1K.');
        if (!quality && !opts.limit) throw new CliError('Give --quality or --limit.');
        const channelId = await sandboxChannel(em, opts.channel);
        const changed = await em.transactional((tx) =>
          applyChannelHealth(tx, channelId, {
            ...(quality ? { quality } : {}),
            ...(opts.limit ? { messagingLimit: opts.limit } : {}),
          }),
        );
        return { channelId, changed };
      }),
    );
}
