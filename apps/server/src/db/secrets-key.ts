import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { createSecretBox, type SecretBox } from '../kit/secrets.js';
import type { Logger } from '../logger.js';

/** Where migrations find the box (MikroORM configuration extension): one of them encrypts stored secrets. */
export const SECRETS_EXTENSION = 'switchboard:secrets';

/** The embedded database's own key, beside its cluster in the data directory. */
const EMBEDDED_SECRETS_KEY_FILE = 'secrets.key';

/**
 * The box secrets at rest are sealed with: SECRETS_KEY when set. Unset with a configured DATABASE_URL: none (what
 * needs one then says so; start-up refuses stored secrets it cannot open). Unset with the embedded database (the
 * default `pnpm start`, a development setup by design): a key generated once into the data directory, so webhooks
 * and WhatsApp channels work out of the box and stay readable across restarts and the CLI.
 */
export function secretsFor(config: Config, logger: Logger): SecretBox | undefined {
  if (config.SECRETS_KEY !== undefined)
    return createSecretBox(config.SECRETS_KEY, 'SECRETS_KEY', config.SECRETS_KEY_PREVIOUS ?? []);
  if (config.DATABASE_URL) return undefined;
  const file = path.join(config.SWITCHBOARD_DATA_DIR, EMBEDDED_SECRETS_KEY_FILE);
  mkdirSync(config.SWITCHBOARD_DATA_DIR, { recursive: true });
  try {
    // `wx`: of a server and a CLI starting together, one writes the key and both read it.
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    logger.warn(
      { file },
      'SECRETS_KEY is not set: generated a key for the embedded database (set SECRETS_KEY with DATABASE_URL)',
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return createSecretBox(readFileSync(file, 'utf8'), file);
}
