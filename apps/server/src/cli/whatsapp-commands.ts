import type { Command } from 'commander';
import { Channel } from '../modules/channels/index.js';
import {
  connectWhatsAppChannel,
  syncChannelTemplates,
  WHATSAPP,
  WHATSAPP_CLOUD,
  whatsAppCredentialsSchema,
} from '../modules/whatsapp/index.js';
import { CliError, runCommand } from './context.js';
import { channelIdOption } from './options.js';

const OPTION_NAMES: Record<string, string> = {
  phoneNumberId: '--phone-number-id',
  wabaId: '--waba-id',
  accessToken: '--access-token',
  appSecret: '--app-secret',
  verifyToken: '--verify-token',
  appId: '--app-id',
};

/** `channel connect` and `templates sync`: the WhatsApp Cloud API side of a channel. */
export function addWhatsAppCommands(program: Command): void {
  addConnectCommand(program);
  addTemplateSyncCommand(program);
}

function addConnectCommand(program: Command): void {
  program
    .command('channel')
    .description('Manage channels')
    .command('connect')
    .description(
      'Connect a channel to the WhatsApp Cloud API, or rotate its credentials: checked with Meta first (nothing is ' +
        'stored on a refusal), ' +
        'secrets stored encrypted with SECRETS_KEY, the business account’s templates pulled. Prints the inbound ' +
        'webhook URL to give Meta',
    )
    .requiredOption('--channel <id>', 'the channel id')
    .requiredOption('--phone-number-id <id>', 'WhatsApp Manager → phone numbers: the number’s ID')
    .requiredOption('--waba-id <id>', 'the WhatsApp Business Account ID')
    .requiredOption(
      '--access-token <token>',
      'a system user access token with whatsapp_business_messaging and whatsapp_business_management',
    )
    .requiredOption(
      '--app-secret <secret>',
      'the Meta app’s secret (App settings → Basic): checks the signature of Meta’s webhooks',
    )
    .requiredOption('--verify-token <token>', 'a string of your choosing; enter the same in Meta’s webhook settings')
    .option(
      '--app-id <id>',
      'the Meta app’s ID (App settings → Basic): needed to create templates with a media header, whose sample is ' +
        'uploaded on the app',
    )
    .action((opts: Record<string, string>) =>
      runCommand(async (em, { services }) => {
        const channelId = channelIdOption(opts.channel!);
        const credentials = whatsAppCredentialsSchema.safeParse(opts);
        if (!credentials.success) {
          const issue = credentials.error.issues[0]!;
          throw new CliError(`${OPTION_NAMES[String(issue.path[0])] ?? issue.path.join('.')} ${issue.message}.`);
        }
        return connectWhatsAppChannel({ em }, (await services()).get(WHATSAPP), channelId, credentials.data);
      }),
    );
}

function addTemplateSyncCommand(program: Command): void {
  program
    .command('templates')
    .description('Manage message templates')
    .command('sync')
    .description('Pull a WhatsApp Cloud API channel’s templates from Meta now (they are also pulled on a schedule)')
    .requiredOption('--channel <id>', 'the channel id')
    .action((opts: { channel: string }) =>
      runCommand(async (em, { services, logger }) => {
        const channelId = channelIdOption(opts.channel);
        const channel = await em.findOne(Channel, channelId, { fields: ['provider'] });
        if (!channel) throw new CliError(`No channel ${channelId}.`);
        if (channel.provider !== WHATSAPP_CLOUD) {
          throw new CliError(
            `Channel ${channelId} uses the ${channel.provider} provider: its templates come from the seed file, ` +
              `there is nothing to sync.`,
          );
        }
        return {
          channelId,
          ...(await syncChannelTemplates({ em }, (await services()).get(WHATSAPP), channelId, logger)),
        };
      }),
    );
}
