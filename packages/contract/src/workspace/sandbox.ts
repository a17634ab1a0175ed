import { z } from 'zod';
import {
  channelScoped,
  endpoint,
  EXAMPLE_IDS,
  named,
  okEnvelope,
  phoneParam,
  withFieldRules,
  type FieldProblem,
} from '../common/index.js';

/** What a played customer message may be: a text, or a photo (its file is the sandbox's placeholder image). */
export const SANDBOX_MESSAGE_TYPES = ['text', 'image'] as const;

const sandboxReceiveFields = z.object({
  ...channelScoped,
  from: phoneParam().describe('The customer’s number, digits with country code'),
  type: z.enum(SANDBOX_MESSAGE_TYPES).default('text').describe('What the customer sends; `text` unless given'),
  text: z
    .string()
    .min(1, 'must not be empty')
    .max(4096, 'must be at most 4096 characters')
    .optional()
    .describe('What the customer writes: required for `text`; an image’s caption'),
});
type SandboxReceiveInput = z.input<typeof sandboxReceiveFields>;
export type SandboxReceiveValues = z.output<typeof sandboxReceiveFields>;

function sandboxReceiveProblems(values: SandboxReceiveValues): FieldProblem[] {
  return values.type === 'text' && values.text === undefined
    ? [{ field: 'text', problem: 'is required for type text' }]
    : [];
}

export const sandboxReceiveParams = withFieldRules<SandboxReceiveInput>()(sandboxReceiveFields, {
  sets: [
    ['from', 'text'],
    ['from', 'type'],
  ],
  check: sandboxReceiveProblems,
});

export const sandboxReceiveResult = named(
  'SandboxReceiveResult',
  z.object({
    msgid: z.string().describe('The customer’s message: chat/message/read, replyTo, chat/media/get take it'),
    from: z.string(),
    type: z.enum(SANDBOX_MESSAGE_TYPES),
  }),
);
export type SandboxReceiveResult = z.infer<typeof sandboxReceiveResult>;

export const sandboxContract = {
  receive: endpoint({
    operation: 'workspace.sandbox.receive',
    path: '/api/workspace/v1/sandbox/receive',
    summary: 'Play a customer’s message on a sandbox channel',
    description: [
      'A test helper (like Stripe’s): records a message from a customer on a sandbox channel exactly as an inbound ' +
        'WhatsApp message is recorded — contact found or created (named by the phone), conversation opened or ' +
        'reopened, the 24-hour window for session messages opened, `message.received` sent to webhooks, automations ' +
        'and the live stream — so code can be tried end to end without a phone: read the message, reply to it, ' +
        'mark it read. An `image` is the sandbox’s placeholder photo (chat/media/get links to it), with `text` as ' +
        'its caption. The CLI does the same: `pnpm cli sandbox receive`.',
      'Sandbox channels only: a WhatsApp Cloud API channel’s customers write from their phones (400 naming ' +
        '`channelId`).',
    ].join('\n\n'),
    params: sandboxReceiveParams,
    response: okEnvelope(sandboxReceiveResult),
    // A message, like the single sends: trying a flow plays many, and a Postman run should not spend the writes.
    rateClass: 'api_message',
    access: { scope: 'workspace' },
    // Records a new customer message each time (a repeat is another message); nothing leaves the deployment.
    effects: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
    errors: ['no_channel'],
    example: { channelId: EXAMPLE_IDS.channelId, from: '15550000001', text: 'Hi! When does order A-1001 ship?' },
    failureExamples: {
      textRequired: {
        summary: 'a text message without its text',
        status: 400,
        error: 'invalid_request',
        message: 'text: is required for type text',
      },
    },
  }),
};
