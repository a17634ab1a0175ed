/**
 * How the Graph stand-in checks interactive messages, reactions and locations: Meta's shapes and limits (Meta's
 * Cloud API reference, WHATSAPP-CLOUD.md). A broken limit is what Meta answers with 131009 ("Parameter value is not
 * valid"); a wrong shape, 100. Returns the refusal's code, or null for a message Meta would take.
 */
type Json = Record<string, unknown>;

const text = (value: unknown, max: number) => typeof value === 'string' && value.length > 0 && value.length <= max;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const unique = (values: unknown[]) => new Set(values).size === values.length;

function headerOk(header: unknown, textOnly: boolean): boolean {
  if (header === undefined) return true;
  if (!isObject(header)) return false;
  if (header.type === 'text') return text(header.text, 60);
  const media = header[header.type as string];
  return (
    !textOnly &&
    ['image', 'video', 'document'].includes(header.type as string) &&
    isObject(media) &&
    typeof media.link === 'string' &&
    media.link.startsWith('https://')
  );
}

function interactiveCode(interactive: unknown): number | null {
  if (!isObject(interactive) || !isObject(interactive.body) || !isObject(interactive.action)) return 100;
  const { type, action, footer } = interactive;
  if (footer !== undefined && !(isObject(footer) && text(footer.text, 60))) return 131009;
  if (type === 'button') {
    const buttons = action.buttons as { type?: string; reply?: { id?: unknown; title?: unknown } }[] | undefined;
    if (!Array.isArray(buttons) || buttons.some((button) => button.type !== 'reply' || !isObject(button.reply)))
      return 100;
    const ok =
      text(interactive.body.text, 1024) &&
      headerOk(interactive.header, false) &&
      buttons.length >= 1 &&
      buttons.length <= 3 &&
      buttons.every((button) => text(button.reply!.id, 256) && text(button.reply!.title, 20)) &&
      unique(buttons.map((button) => button.reply!.title)) &&
      unique(buttons.map((button) => button.reply!.id));
    return ok ? null : 131009;
  }
  if (type === 'list') {
    const sections = action.sections as { title?: unknown; rows?: Json[] }[] | undefined;
    if (!Array.isArray(sections) || sections.some((section) => !Array.isArray(section.rows))) return 100;
    const rows = sections.flatMap((section) => section.rows!);
    const ok =
      text(interactive.body.text, 4096) &&
      headerOk(interactive.header, true) &&
      text(action.button, 20) &&
      sections.length >= 1 &&
      sections.length <= 10 &&
      rows.length >= 1 &&
      rows.length <= 10 &&
      rows.every(
        (row) =>
          text(row.id, 200) && text(row.title, 24) && (row.description === undefined || text(row.description, 72)),
      ) &&
      unique(rows.map((row) => row.id)) &&
      sections.every((section) => (section.title === undefined ? sections.length === 1 : text(section.title, 24)));
    return ok ? null : 131009;
  }
  if (type === 'cta_url') {
    const parameters = action.parameters as Json | undefined;
    if (action.name !== 'cta_url' || !isObject(parameters)) return 100;
    const ok =
      text(interactive.body.text, 1024) &&
      headerOk(interactive.header, false) &&
      text(parameters.display_text, 20) &&
      typeof parameters.url === 'string' &&
      parameters.url.startsWith('https://');
    return ok ? null : 131009;
  }
  return 100;
}

/** Meta's answer code to a session message of these types, or null when it is accepted. */
export function richMessageCode(type: string, content: unknown): number | null {
  if (type === 'interactive') return interactiveCode(content);
  if (!isObject(content)) return 100;
  if (type === 'reaction') return text(content.message_id, 200) && typeof content.emoji === 'string' ? null : 100;
  const coordinate = (value: unknown, limit: number) => typeof value === 'number' && Math.abs(value) <= limit;
  return coordinate(content.latitude, 90) && coordinate(content.longitude, 180) ? null : 100;
}

export const RICH_TYPES = new Set(['interactive', 'reaction', 'location']);
