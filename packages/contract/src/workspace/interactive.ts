/**
 * The messages beyond text and media: interactive ones (reply buttons, a list, a call-to-action link), reactions and
 * locations, as chat/message/send and automations send them and as the history and `message.received` show them.
 * Every limit is Meta's (WhatsApp Cloud API, docs/whatsapp.md), checked here so a send past one is a 400 naming the
 * field before any provider is called.
 */
import { z } from 'zod';
import { named } from '../common/index.js';

/** Text of at most `max` characters, not empty. */
const limited = (max: number) =>
  z.string({ required_error: 'is required' }).min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** A public `https://` link the provider fetches (a media send's file, a media header, a call-to-action). */
export const httpsUrlParam = z
  .string({ required_error: 'is required' })
  .max(2048, 'must be at most 2048 characters')
  .url('must be an https:// URL')
  .refine((url) => url.startsWith('https://'), 'must be an https:// URL');

export const INTERACTIVE_HEADER_MEDIA = ['image', 'video', 'document'] as const;

const textHeader = z.object({ text: limited(60) }).strict();
const headerSchema = named(
  'InteractiveHeader',
  z
    .union([
      textHeader,
      z
        .object({
          type: z.enum(INTERACTIVE_HEADER_MEDIA),
          mediaUrl: httpsUrlParam.describe('Public `https://` link of the file, as for media sends'),
        })
        .strict(),
    ])
    .describe('`{text}` (at most 60 characters) or `{type: image|video|document, mediaUrl}`'),
);

const body = (max: number) => limited(max).describe(`The message’s text, at most ${max} characters`);
const footer = limited(60).optional().describe('Small grey text under the body, at most 60 characters');

const buttonsSchema = named(
  'InteractiveButtons',
  z
    .object({
      kind: z.literal('buttons'),
      body: body(1024),
      header: headerSchema.optional(),
      footer,
      buttons: z
        .array(
          z
            .object({
              id: limited(256).describe('What the tap reports back (`interactive.id` of the reply); unique'),
              title: limited(20).describe('The button’s label, at most 20 characters; unique'),
            })
            .strict(),
        )
        .min(1, 'must list at least 1 button')
        .max(3, 'must list at most 3 buttons'),
    })
    .strict()
    .describe('Up to 3 reply buttons'),
);

export const LIST_MAX_ROWS = 10;
const listSchema = named(
  'InteractiveList',
  z
    .object({
      kind: z.literal('list'),
      body: body(4096),
      header: textHeader.optional().describe('Text only, at most 60 characters'),
      footer,
      button: limited(20).describe('The label of the button that opens the list, at most 20 characters'),
      sections: z
        .array(
          z
            .object({
              title: limited(24).optional().describe('At most 24 characters; required when there are several sections'),
              rows: z
                .array(
                  z
                    .object({
                      id: limited(200).describe('What the choice reports back (`interactive.id`); unique in the list'),
                      title: limited(24),
                      description: limited(72).optional(),
                    })
                    .strict(),
                )
                .min(1, 'must list at least 1 row')
                .max(LIST_MAX_ROWS, `must list at most ${LIST_MAX_ROWS} rows`),
            })
            .strict(),
        )
        .min(1, 'must list at least 1 section')
        .max(10, 'must list at most 10 sections'),
    })
    .strict()
    .describe(`A list of up to ${LIST_MAX_ROWS} choices in all, in sections`),
);

const ctaUrlSchema = named(
  'InteractiveCtaUrl',
  z
    .object({
      kind: z.literal('cta_url'),
      body: body(1024),
      header: headerSchema.optional(),
      footer,
      displayText: limited(20).describe('The link button’s label, at most 20 characters'),
      url: httpsUrlParam.describe('Where the button leads: an `https://` link'),
    })
    .strict()
    .describe('A button that opens a link'),
);

type InteractiveShape = z.output<typeof buttonsSchema> | z.output<typeof listSchema> | z.output<typeof ctaUrlSchema>;

/** Rules across items: unique button titles and ids, unique row ids, section titles when there are several. */
function interactiveProblems(interactive: InteractiveShape): { path: (string | number)[]; problem: string }[] {
  const problems: { path: (string | number)[]; problem: string }[] = [];
  const unique = (values: string[], path: (index: number) => (string | number)[]) => {
    values.forEach((value, index) => {
      const first = values.indexOf(value);
      if (first !== index) problems.push({ path: path(index), problem: `must be unique (button ${first} has it too)` });
    });
  };
  if (interactive.kind === 'buttons') {
    const { buttons } = interactive;
    unique(
      buttons.map((button) => button.title),
      (i) => ['buttons', i, 'title'],
    );
    unique(
      buttons.map((button) => button.id),
      (i) => ['buttons', i, 'id'],
    );
  }
  if (interactive.kind === 'list') {
    const { sections } = interactive;
    const rows = sections.flatMap((section, s) => section.rows.map((row, r) => ({ row, path: [s, r] as const })));
    if (rows.length > LIST_MAX_ROWS)
      problems.push({ path: ['sections'], problem: `must hold at most ${LIST_MAX_ROWS} rows in all (${rows.length})` });
    rows.forEach(({ row, path }, index) => {
      if (rows.findIndex((other) => other.row.id === row.id) !== index)
        problems.push({ path: ['sections', path[0], 'rows', path[1], 'id'], problem: 'must be unique in the list' });
    });
    if (sections.length > 1)
      sections.forEach((section, s) => {
        if (section.title === undefined)
          problems.push({ path: ['sections', s, 'title'], problem: 'is required when there are several sections' });
      });
  }
  return problems;
}

export const interactiveSchema = named(
  'Interactive',
  z
    .discriminatedUnion('kind', [buttonsSchema, listSchema, ctaUrlSchema])
    .superRefine((interactive, ctx) => {
      for (const { path, problem } of interactiveProblems(interactive))
        ctx.addIssue({ code: z.ZodIssueCode.custom, path, message: problem });
    })
    .describe('Reply buttons (`buttons`), a list (`list`) or a link button (`cta_url`), told apart by `kind`'),
);
export type Interactive = z.infer<typeof interactiveSchema>;
export const INTERACTIVE_KINDS = ['buttons', 'list', 'cta_url'] as const;

/** Each text of an interactive message a placeholder may fill (automations), by its path under `interactive`. */
export function interactiveTexts(interactive: Interactive): { path: string; text: string }[] {
  const texts: { path: string; text: string }[] = [{ path: 'body', text: interactive.body }];
  if (interactive.header && 'text' in interactive.header)
    texts.push({ path: 'header.text', text: interactive.header.text });
  if (interactive.footer !== undefined) texts.push({ path: 'footer', text: interactive.footer });
  if (interactive.kind === 'buttons')
    interactive.buttons.forEach((button, i) => texts.push({ path: `buttons.${i}.title`, text: button.title }));
  if (interactive.kind === 'list') {
    texts.push({ path: 'button', text: interactive.button });
    interactive.sections.forEach((section, s) => {
      if (section.title !== undefined) texts.push({ path: `sections.${s}.title`, text: section.title });
      section.rows.forEach((row, r) => texts.push({ path: `sections.${s}.rows.${r}.title`, text: row.title }));
    });
  }
  if (interactive.kind === 'cta_url') texts.push({ path: 'displayText', text: interactive.displayText });
  return texts;
}

/** The same interactive message with each of its texts (interactiveTexts) changed by `fill`. */
export function mapInteractiveTexts(interactive: Interactive, fill: (text: string) => string): Interactive {
  const header = interactive.header && 'text' in interactive.header ? { text: fill(interactive.header.text) } : {};
  const common = {
    body: fill(interactive.body),
    ...(interactive.footer !== undefined && { footer: fill(interactive.footer) }),
  };
  switch (interactive.kind) {
    case 'buttons':
      return {
        ...interactive,
        ...common,
        ...(interactive.header && { header: { ...interactive.header, ...header } }),
        buttons: interactive.buttons.map((button) => ({ ...button, title: fill(button.title) })),
      };
    case 'list':
      return {
        ...interactive,
        ...common,
        ...(interactive.header && { header: { ...interactive.header, ...header } }),
        button: fill(interactive.button),
        sections: interactive.sections.map((section) => ({
          ...section,
          ...(section.title !== undefined && { title: fill(section.title) }),
          rows: section.rows.map((row) => ({ ...row, title: fill(row.title) })),
        })),
      };
    case 'cta_url':
      return {
        ...interactive,
        ...common,
        ...(interactive.header && { header: { ...interactive.header, ...header } }),
        displayText: fill(interactive.displayText),
      };
  }
}

/** A customer's tap on a reply button or a list row, with the ids the message sent gave them. */
export const interactiveReplySchema = named(
  'InteractiveReply',
  z
    .object({
      kind: z.enum(['button_reply', 'list_reply']),
      id: z.string().describe('The id of the button or row tapped'),
      title: z.string(),
      description: z.string().optional().describe('A list row’s description'),
    })
    .describe('A customer’s tap on a reply button or a list row, with the id the message sent gave it'),
);
export type InteractiveReply = z.infer<typeof interactiveReplySchema>;

/** One emoji (a single grapheme: flags, skin tones and joined sequences count as one), or '' to remove a reaction. */
function isOneEmoji(text: string): boolean {
  if (text === '') return true;
  const graphemes = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)];
  return graphemes.length === 1 && /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u.test(text);
}

export const reactionSendSchema = z
  .object({
    msgid: z
      .string({ required_error: 'is required' })
      .min(1, 'must not be empty')
      .max(200, 'must be at most 200 characters')
      .describe('The message reacted to: of the same conversation (either direction), at most 30 days old'),
    emoji: z
      .string({ required_error: 'is required' })
      .max(32, 'must be one emoji')
      .refine(isOneEmoji, 'must be one emoji, or "" to remove the reaction')
      .describe('One emoji; `""` removes the reaction'),
  })
  .strict();

/** A reaction as the history and `message.received` show it. */
export const reactionSchema = named(
  'Reaction',
  z
    .object({
      msgid: z.string().describe('The message reacted to'),
      emoji: z.string().nullable().describe('null when the reaction was removed'),
    })
    .describe('A reaction (type `reaction`): the message reacted to and the emoji'),
);
export type Reaction = z.infer<typeof reactionSchema>;

export const locationSchema = named(
  'Location',
  z
    .object({
      latitude: z.number().min(-90, 'must be at least -90').max(90, 'must be at most 90'),
      longitude: z.number().min(-180, 'must be at least -180').max(180, 'must be at most 180'),
      name: limited(1000).optional(),
      address: limited(1000).optional(),
    })
    .strict()
    .describe('A place (type `location`): its coordinates, and optionally its name and address'),
);
export type Location = z.infer<typeof locationSchema>;

/** How a message without text reads in lists (the inbox's lastMessage, `text`): what the customer saw. */
export function readableLocation(location: Location): string {
  const place = [location.name, location.address].filter(Boolean).join(', ');
  return place || `${location.latitude},${location.longitude}`;
}
