import { phoneParam } from '@switchboard/contract';
import type { Command } from 'commander';
import { receiveSandboxMessage } from '../modules/sandbox/index.js';
import { CliError, runCommand } from './context.js';
import { channelIdOption } from './options.js';

const phone = phoneParam();

/** `sandbox receive`: a customer writes to a sandbox channel, as a WhatsApp message would arrive. */
export function addSandboxCommands(program: Command): void {
  program
    .command('sandbox')
    .description('Play the customer on a sandbox channel')
    .command('receive')
    .description(
      'Record a customer’s text message on a sandbox channel exactly as an inbound WhatsApp message is recorded ' +
        '(contact found or created, conversation updated, message.received queued for the running server to ' +
        'deliver) and print its msgid. The same msgid again records nothing, like Meta’s redelivery.',
    )
    .requiredOption('--channel <id>', 'the sandbox channel id')
    .requiredOption('--from <phone>', 'the customer’s number, digits with country code')
    .requiredOption('--text <text>', 'what the customer writes')
    .option('--msgid <id>', 'the message id (a new wamid.… unless given)')
    .action((opts: { channel: string; from: string; text: string; msgid?: string }) =>
      runCommand(async (em, { jobs }) => {
        const from = phone.safeParse(opts.from);
        if (!from.success) throw new CliError(`--from ${from.error.issues[0]!.message}.`);
        if (opts.text.length === 0 || opts.text.length > 4096)
          throw new CliError('--text must be 1 to 4096 characters.');
        if (opts.msgid !== undefined && (opts.msgid.length === 0 || opts.msgid.length > 200))
          throw new CliError('--msgid must be 1 to 200 characters.');
        const { msgid } = await receiveSandboxMessage({ em }, await jobs(), {
          channelId: channelIdOption(opts.channel),
          from: from.data,
          text: opts.text,
          msgid: opts.msgid,
        });
        return { msgid };
      }),
    );
}
