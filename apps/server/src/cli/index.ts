import { ConfigError } from '../config.js';
import { AppError } from '../kit/errors.js';
import { SeedError } from '../kit/seed.js';
import { buildCli } from './commands.js';
import { CliError } from './context.js';

try {
  await buildCli().parseAsync(process.argv);
} catch (error) {
  const expected =
    error instanceof CliError ||
    error instanceof SeedError ||
    error instanceof ConfigError ||
    error instanceof AppError;
  process.stderr.write(`${expected ? (error as Error).message : ((error as Error).stack ?? String(error))}\n`);
  process.exitCode = 1;
}
