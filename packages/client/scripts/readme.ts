/**
 * Writes the README's method and event tables from the contract (`pnpm --filter @switchboard/client readme`), between
 * the `<!-- generated:… -->` markers; tests/sdk/readme.test.ts fails when the committed README differs, so a table
 * cannot go stale when an endpoint or event is added.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { contract, contractEndpoints, isPaginated, WEBHOOK_EVENTS, webhookEventName } from '@switchboard/contract';

export const README_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../README.md');

/** A Markdown table with its columns padded to their widest cell. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** Every method: its path on the client, the contract's summary, its rate class, and whether it has `.all()`. */
export function methodTable(): string {
  const rows = contractEndpoints(contract).map(({ at, post }) => [
    `\`sb.${at.join('.')}\``,
    `${post.summary}${isPaginated(post) ? ' (`.all()` iterates every page)' : ''}`,
    `\`${post.metadata.rateClass}\``,
  ]);
  return table(['Method', 'What it does', 'Rate class'], rows);
}

/** Every webhook event: its type, its body's type name in the SDK, and when it is sent. */
export function eventTable(): string {
  const rows = Object.entries(WEBHOOK_EVENTS).map(([type, event]) => [
    `\`${type}\``,
    `\`${webhookEventName(type)}\``,
    event.summary,
  ]);
  return table(['`event.type`', 'Type', 'Sent when'], rows);
}

const SECTIONS: Record<string, () => string> = { methods: methodTable, events: eventTable };

/** The README with each generated section replaced by its table as the contract is now. */
export function generateReadme(readme: string): string {
  let text = readme;
  for (const [name, render] of Object.entries(SECTIONS)) {
    const pattern = new RegExp(`(<!-- generated:${name} [^>]*-->\\n)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!pattern.test(text)) throw new Error(`README.md has no <!-- generated:${name} --> section`);
    text = text.replace(pattern, (_, open: string, close: string) => `${open}${render()}\n${close}`);
  }
  return text;
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  writeFileSync(README_FILE, generateReadme(readFileSync(README_FILE, 'utf8')));
