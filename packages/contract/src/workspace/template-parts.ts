import { z } from 'zod';
import { named, type FieldProblem } from '../common/index.js';

/**
 * A template's parts beyond its body (header, footer, buttons) as the API shows them and as chat/templates/manage
 * takes them, and the rules Meta applies to a new template (WhatsApp Business Management API), checked here so a
 * wrong draft is a 400 naming its path before Meta is asked.
 */

export const TEMPLATE_MEDIA_FORMATS = ['image', 'video', 'document'] as const;
export type TemplateMediaFormat = (typeof TEMPLATE_MEDIA_FORMATS)[number];
export const TEMPLATE_BUTTON_TYPES = ['quick_reply', 'url', 'phone_number', 'copy_code'] as const;
export type TemplateButtonType = (typeof TEMPLATE_BUTTON_TYPES)[number];

export const TEMPLATE_BODY_MAX = 1024;
export const TEMPLATE_HEADER_TEXT_MAX = 60;
export const TEMPLATE_FOOTER_MAX = 60;
export const TEMPLATE_BUTTON_TEXT_MAX = 25;
export const TEMPLATE_BUTTONS_MAX = 10;

/** `{{n}}` as Meta writes a positional variable. */
const VARIABLE = /\{\{\s*(\d+)\s*\}\}/g;
/** The variables' numbers in order of appearance. */
export const variableNumbers = (text: string) => [...text.matchAll(VARIABLE)].map((match) => Number(match[1]));

export const templateHeaderSchema = named(
  'TemplateHeader',
  z.discriminatedUnion('format', [
    named(
      'TemplateTextHeader',
      z.object({ format: z.literal('text'), text: z.string().describe('May hold one variable, {{1}}') }),
    ),
    named('TemplateMediaHeader', z.object({ format: z.enum([...TEMPLATE_MEDIA_FORMATS, 'location']) })),
  ]),
);
export type TemplateHeader = z.infer<typeof templateHeaderSchema>;

export const templateButtonSchema = named(
  'TemplateButton',
  z.discriminatedUnion('type', [
    named('TemplateQuickReplyButton', z.object({ type: z.literal('quick_reply'), text: z.string() })),
    named(
      'TemplateUrlButton',
      z.object({
        type: z.literal('url'),
        text: z.string(),
        url: z.string().describe('May end with one variable, {{1}}'),
      }),
    ),
    named(
      'TemplatePhoneNumberButton',
      z.object({ type: z.literal('phone_number'), text: z.string(), phoneNumber: z.string() }),
    ),
    named('TemplateCopyCodeButton', z.object({ type: z.literal('copy_code') })),
  ]),
);
export type TemplateButton = z.infer<typeof templateButtonSchema>;

const text = (max: number) =>
  z.string({ required_error: 'is required' }).min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const example = (max: number) => text(max).describe('A sample value, which Meta’s reviewers see');

export const templateBodyInput = z
  .object({
    text: text(TEMPLATE_BODY_MAX).describe('With variables {{1}}, {{2}}, … numbered in order from 1'),
    examples: z
      .array(example(TEMPLATE_BODY_MAX))
      .max(100, 'must list at most 100 values')
      .optional()
      .describe('One sample value per variable, in order (required when the text has variables)'),
  })
  .strict();

export const templateHeaderInput = z.discriminatedUnion('format', [
  z
    .object({
      format: z.literal('text'),
      text: text(TEMPLATE_HEADER_TEXT_MAX).describe('At most one variable, {{1}}'),
      example: example(TEMPLATE_HEADER_TEXT_MAX).optional().describe('The variable’s sample value'),
    })
    .strict(),
  z
    .object({
      format: z.enum(TEMPLATE_MEDIA_FORMATS),
      mediaUrl: z
        .string({ required_error: 'is required' })
        .url('must be an https URL')
        .max(2048, 'must be at most 2048 characters')
        .refine((url) => url.startsWith('https://'), 'must be an https URL')
        .describe(
          'A sample file for Meta’s reviewers: JPEG or PNG, MP4, or PDF; fetched by the server and uploaded on the ' +
            'channel’s Meta app',
        ),
    })
    .strict(),
  z.object({ format: z.literal('location') }).strict(),
]);
export type TemplateHeaderInput = z.infer<typeof templateHeaderInput>;

const buttonText = text(TEMPLATE_BUTTON_TEXT_MAX).describe('The button’s label');
export const templateButtonInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('quick_reply'), text: buttonText }).strict(),
  z
    .object({
      type: z.literal('url'),
      text: buttonText,
      url: z
        .string({ required_error: 'is required' })
        .max(2000, 'must be at most 2000 characters')
        .regex(/^https?:\/\/\S+$/, 'must be an http(s) URL')
        .describe('May end with one variable, {{1}}, filled per send'),
      example: z
        .string()
        .max(2000, 'must be at most 2000 characters')
        .optional()
        .describe('The whole URL with the variable filled (required when the URL has one)'),
    })
    .strict(),
  z
    .object({
      type: z.literal('phone_number'),
      text: buttonText,
      phoneNumber: z
        .string({ required_error: 'is required' })
        .regex(/^\+?\d{6,20}$/, 'must be a phone number with country code'),
    })
    .strict(),
  z.object({ type: z.literal('copy_code'), example: text(15).describe('A sample code') }).strict(),
]);
export type TemplateButtonInput = z.infer<typeof templateButtonInput>;

export interface TemplateDraftParts {
  body?: { text: string; examples?: string[] | undefined } | undefined;
  header?: TemplateHeaderInput | null | undefined;
  footer?: string | null | undefined;
  buttons?: TemplateButtonInput[] | undefined;
}

/** Variables numbered 1…n in order, none at the very start or end, each with its example. */
function bodyProblems(body: NonNullable<TemplateDraftParts['body']>): FieldProblem[] {
  const numbers = variableNumbers(body.text);
  const problems: FieldProblem[] = [];
  const outOfOrder = numbers.findIndex((n, i) => n !== i + 1);
  if (outOfOrder >= 0) {
    problems.push({
      field: 'body.text',
      problem: `variables must be numbered {{1}}…{{${numbers.length}}} in order of appearance, each once`,
    });
  }
  const trimmed = body.text.trim();
  if (numbers.length > 0 && (/^\{\{\s*\d+\s*\}\}/.test(trimmed) || /\{\{\s*\d+\s*\}\}$/.test(trimmed))) {
    problems.push({ field: 'body.text', problem: 'must not start or end with a variable' });
  }
  const examples = body.examples?.length ?? 0;
  if (examples !== numbers.length) {
    problems.push({
      field: 'body.examples',
      problem: `must list ${numbers.length} sample value${numbers.length === 1 ? '' : 's'}, one per variable`,
    });
  }
  return problems;
}

function headerProblems(header: TemplateHeaderInput): FieldProblem[] {
  if (header.format !== 'text') return [];
  const numbers = variableNumbers(header.text);
  if (numbers.length > 1 || (numbers.length === 1 && numbers[0] !== 1))
    return [{ field: 'header.text', problem: 'may hold at most one variable, {{1}}' }];
  if (numbers.length === 1 && header.example === undefined)
    return [{ field: 'header.example', problem: 'is required: the header has a variable' }];
  if (numbers.length === 0 && header.example !== undefined)
    return [{ field: 'header.example', problem: 'is not taken: the header has no variable' }];
  return [];
}

const BUTTON_LIMITS: Partial<Record<TemplateButtonType, number>> = { url: 2, phone_number: 1, copy_code: 1 };

function buttonProblems(buttons: TemplateButtonInput[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (buttons.length > TEMPLATE_BUTTONS_MAX)
    problems.push({ field: 'buttons', problem: `must list at most ${TEMPLATE_BUTTONS_MAX} buttons` });
  for (const [type, max] of Object.entries(BUTTON_LIMITS)) {
    if (buttons.filter((button) => button.type === type).length > max)
      problems.push({ field: 'buttons', problem: `may hold at most ${max} ${type} button${max === 1 ? '' : 's'}` });
  }
  // Quick replies form one group, before or after the other buttons (Meta refuses them interleaved).
  const groups = buttons
    .map((button) => button.type === 'quick_reply')
    .filter((q, i, all) => i === 0 || q !== all[i - 1]);
  if (groups.length > 2) {
    problems.push({ field: 'buttons', problem: 'quick replies must be grouped together, not between other buttons' });
  }
  buttons.forEach((button, index) => {
    if (button.type !== 'url') return;
    const numbers = variableNumbers(button.url);
    if (numbers.length > 1 || (numbers.length === 1 && !/\{\{\s*1\s*\}\}$/.test(button.url))) {
      problems.push({ field: `buttons.${index}.url`, problem: 'may hold one variable, {{1}}, only at its end' });
    } else if (numbers.length === 1 && button.example === undefined) {
      problems.push({ field: `buttons.${index}.example`, problem: 'is required: the URL has a variable' });
    }
  });
  return problems;
}

/** Meta's rules for a template's parts, as 400s naming each part's path; what is left out is not checked. */
export function templateDraftProblems(draft: TemplateDraftParts): FieldProblem[] {
  return [
    ...(draft.body ? bodyProblems(draft.body) : []),
    ...(draft.header ? headerProblems(draft.header) : []),
    ...(draft.footer && variableNumbers(draft.footer).length > 0
      ? [{ field: 'footer', problem: 'must not hold variables' }]
      : []),
    ...(draft.buttons ? buttonProblems(draft.buttons) : []),
  ];
}

/** What a send gives a template's header: a media header's file, or a text header's variable. */
export const templateSendHeaderParam = z
  .object({
    mediaUrl: z
      .string()
      .url('must be an https URL')
      .max(2048, 'must be at most 2048 characters')
      .refine((url) => url.startsWith('https://'), 'must be an https URL')
      .optional()
      .describe('A media header’s file (image, video or document as the template says), by https link'),
    text: z
      .string()
      .min(1, 'must not be empty')
      .max(TEMPLATE_HEADER_TEXT_MAX, `must be at most ${TEMPLATE_HEADER_TEXT_MAX} characters`)
      .optional()
      .describe('A text header’s variable value'),
  })
  .strict()
  .superRefine((header, ctx) => {
    if ((header.mediaUrl === undefined) === (header.text === undefined))
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'give mediaUrl (a media header) or text, not both' });
  });
export type TemplateSendHeader = z.infer<typeof templateSendHeaderParam>;

/** What a send gives a template's buttons, by their position in the template. */
export const templateSendButtonsParam = z
  .array(
    z
      .object({
        index: z
          .number()
          .int('must be an integer')
          .min(0, 'must be at least 0')
          .max(TEMPLATE_BUTTONS_MAX - 1, `must be at most ${TEMPLATE_BUTTONS_MAX - 1}`)
          .describe('The button’s position in the template’s `buttons`, from 0'),
        value: z
          .string()
          .min(1, 'must not be empty')
          .max(2000, 'must be at most 2000 characters')
          .describe('A URL button’s variable (the end of its URL), a quick reply’s payload, a copy code'),
      })
      .strict(),
  )
  .max(TEMPLATE_BUTTONS_MAX, `must list at most ${TEMPLATE_BUTTONS_MAX} buttons`);
export type TemplateSendButton = z.infer<typeof templateSendButtonsParam>[number];
