import type { z } from 'zod';
import { withOpenApi } from './openapi-meta.js';

/** One form of a parameters object, chosen by the discriminator's value: the fields it needs and those it may take. */
export interface ParamsForm<Field extends string> {
  required: readonly Field[];
  optional: readonly Field[];
}

/**
 * The OpenAPI keyword the exporter expands into `oneOf` whole shapes, one per discriminator value (packages/openapi):
 * written by actionVariants (`manage` endpoints) and withVariants.
 */
export interface ParamsVariants {
  discriminator: string;
  /**
   * Per discriminator value, the fields of its form beside the shared ones (required first), and the field sets of
   * which it needs one more (notes/manage's create: `contactId` or `phone`), from its own field rules.
   */
  forms: Record<string, { required: string[]; optional: string[]; anyOf?: { required: string[] }[] }>;
  /** Forms without the discriminator, still accepted and published as deprecated (webhooks/manage before `action`). */
  deprecatedForms?: { required: string[]; optional: string[] }[];
}

type Forms<Field extends string> = Record<string, ParamsForm<Field>>;
/** Every field some form names. */
type FormFields<F extends Forms<string>> = F[keyof F]['required'][number] | F[keyof F]['optional'][number];
/** Fields no form names (channelId): every form takes them. */
type Shared<In, D extends keyof In, F extends Forms<string>> = Exclude<
  keyof In,
  D | F[keyof F]['required'][number] | F[keyof F]['optional'][number]
>;
/**
 * Each form as its own object type, told apart by the discriminator: what the compiler (and the SDK) accepts. The
 * form of the discriminator's default value (`Default`) may leave it out.
 */
export type VariantsInput<In, D extends keyof In & string, F extends Forms<string>, Default extends string = never> = {
  [V in keyof F & string]: ([V] extends [Default] ? { [K in D]?: V } : { [K in D]: V }) &
    Pick<In, Shared<In, D, F> | Extract<F[V]['optional'][number], keyof In>> & {
      [K in Extract<F[V]['required'][number], keyof In>]-?: Exclude<In[K], undefined>;
    } & {
      // Another form's fields are refused here too (a text's `mediaUrl`), also when the discriminator is left out.
      [K in Exclude<FormFields<F>, F[V]['required'][number] | F[V]['optional'][number]>]?: never;
    };
}[keyof F & string];

/**
 * Parameters whose fields depend on one field's value with a default (chat/message/send's `type`): one form per value,
 * so the SDK's input type is a discriminated union (`image` needs `mediaUrl`), and the OpenAPI a `oneOf`. Validation
 * is the caller's field rules; a `manage` endpoint's `action` variants are actionVariants, which also check them.
 * `_defaultForm` names the form whose discriminator value is the field's default (chat/message/send's `text`).
 */
export function withVariants<
  S extends z.AnyZodObject,
  D extends keyof z.input<S> & string,
  const F extends Forms<keyof z.input<S> & string>,
  Default extends keyof F & string = never,
>(schema: S, discriminator: D, forms: F, _defaultForm?: Default) {
  const variants: ParamsVariants = {
    discriminator,
    forms: Object.fromEntries(
      Object.entries(forms).map(([value, form]) => [
        value,
        { required: [...form.required], optional: [...form.optional] },
      ]),
    ),
  };
  return withOpenApi(schema, { variants }) as unknown as z.ZodObject<
    S['shape'],
    S['_def']['unknownKeys'],
    S['_def']['catchall'],
    z.output<S>,
    VariantsInput<z.input<S>, D, F, Default>
  >;
}
