import type { ToolSpec } from './catalogue.js';
import { TOOLS } from './generated/tools.js';

/** The selector for read-only tools in `?tools=` (and SWITCHBOARD_MCP_TOOLS). */
const READ = 'read';

/** A `?tools=` value that names no group or tool; its message says which ones there are. */
export class ToolSelectionError extends Error {}

/**
 * The tools a server offers, narrowed by a selector such as `read`, `contacts,chat` or `read,chat`: comma-separated
 * groups (`chat`), narrower prefixes (`chat_notes`) or tool names; `read` keeps only read-only tools and combines with
 * the others (`read,chat`: chat's reads). Absent or empty: every tool. A tool left out is neither listed nor callable.
 */
export function selectTools(selector: string | undefined, tools: readonly ToolSpec[] = TOOLS): ToolSpec[] {
  const words = (selector ?? '')
    .split(',')
    .map((word) => word.trim().toLowerCase().replaceAll('-', '_'))
    .filter(Boolean);
  const readOnly = words.includes(READ);
  const prefixes = words.filter((word) => word !== READ);
  const matches = (tool: ToolSpec, prefix: string) => tool.name === prefix || tool.name.startsWith(`${prefix}_`);
  const unknown = prefixes.filter((prefix) => !tools.some((tool) => matches(tool, prefix)));
  if (unknown.length) {
    const groups = [...new Set(tools.map((tool) => tool.group))].join(', ');
    throw new ToolSelectionError(
      `tools: no tool group or tool named ${unknown.map((word) => `"${word}"`).join(', ')}; ` +
        `use "read", a group (${groups}), a narrower prefix (chat_notes) or a tool name, separated by commas.`,
    );
  }
  return tools.filter(
    (tool) =>
      (!readOnly || tool.annotations.readOnlyHint) &&
      (!prefixes.length || prefixes.some((prefix) => matches(tool, prefix))),
  );
}
