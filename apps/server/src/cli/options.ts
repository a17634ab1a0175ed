import { isUuid } from '@switchboard/contract';
import { CliError } from './context.js';

/** `--channel <id>`: a channel id is a UUID. */
export function channelIdOption(value: string): string {
  if (!isUuid(value)) throw new CliError('--channel must be a channel id (UUID).');
  return value;
}
