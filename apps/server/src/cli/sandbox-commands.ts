import { phoneParam } from '@switchboard/contract';
import type { Command } from 'commander';
import { receiveSandboxMessage } from '../modules/sandbox/index.js';
import { CliError, runCommand } from './context.js';
import { channelIdOption } from './options.js';

const phone = phoneParam();

interface ReceiveOptions {
  channel: string;
  from: string;
  text?: string;
  buttonReply?: string;
  listReply?: string;
  reaction?: string;
  location?: string;
  replyTo?: string;
  msgid?: string;
}

/** `--location 52.37,4.89`: latitude and longitude on the globe. */
function locationOption(value: string) {
  const parts = value.split(',').map((part) => Number(part.trim()));
  const [latitude, longitude] = parts;
  if (parts.length !== 2 || !Number.isFinite(latitude) || !Number.isFinite(longitude))
    throw new CliError('--location must be LATITUDE,LONGITUDE, like 52.37,4.89.');
  if (Math.abs(latitude!) > 90 || Math.abs(longitude!) > 180)
    throw new CliError('--location must have a latitude in -90..90 and a longitude in -180..180.');
  return { latitude: latitude!, longitude: longitude! };
}

function checkLength(option: string, value: string | undefined, min: number, max: number) {
  if (value !== undefined && (value.length < min || value.length > max))
    throw new CliError(`--${option} must be ${min} to ${max} characters.`);
}

/**
 * `sandbox receive`: a customer writes, taps a button or a list row, reacts or shares a location on a sandbox
 * channel, as a WhatsApp message would arrive (the sandbox module's receiveSandboxMessage does the work).
 */
export function addSandboxCommands(program: Command): void {
  program
    .command('sandbox')
    .description('Play the customer on a sandbox channel')
    .command('receive')
    .description(
      'Record a customer’s message on a sandbox channel exactly as an inbound WhatsApp message is recorded ' +
        '(contact found or created, conversation updated, message.received queued for the running server to ' +
        'deliver) and print its msgid: a text, a tap on a reply button or list row of a message sent, a reaction or ' +
        'a location (one of them). The same msgid again records nothing, like Meta’s redelivery.',
    )
    .requiredOption('--channel <id>', 'the sandbox channel id')
    .requiredOption('--from <phone>', 'the customer’s number, digits with country code')
    .option('--text <text>', 'what the customer writes')
    .option('--button-reply <id>', 'the id of the reply button tapped (of the message --reply-to)')
    .option('--list-reply <id>', 'the id of the list row picked (of the message --reply-to)')
    .option('--reaction <emoji>', 'an emoji reacting to the message --reply-to ("" removes the reaction)')
    .option('--location <lat,lng>', 'a location the customer shares, like 52.37,4.89')
    .option('--reply-to <msgid>', 'the message replied to, tapped or reacted to')
    .option('--msgid <id>', 'the message id (a new wamid.… unless given)')
    .action((opts: ReceiveOptions) =>
      runCommand(async (em, { jobs }) => {
        const from = phone.safeParse(opts.from);
        if (!from.success) throw new CliError(`--from ${from.error.issues[0]!.message}.`);
        checkLength('text', opts.text, 1, 4096);
        checkLength('msgid', opts.msgid, 1, 200);
        checkLength('reply-to', opts.replyTo, 1, 200);
        checkLength('button-reply', opts.buttonReply, 1, 256);
        checkLength('list-reply', opts.listReply, 1, 200);
        checkLength('reaction', opts.reaction, 0, 32);
        const { msgid } = await receiveSandboxMessage({ em }, await jobs(), {
          channelId: channelIdOption(opts.channel),
          from: from.data,
          text: opts.text,
          buttonReply: opts.buttonReply,
          listReply: opts.listReply,
          reaction: opts.reaction,
          location: opts.location === undefined ? undefined : locationOption(opts.location),
          replyTo: opts.replyTo,
          msgid: opts.msgid,
        });
        return { msgid };
      }),
    );
}
