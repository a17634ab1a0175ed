import { z } from 'zod';
import { paramsObject, type FieldProblem } from './field-rules.js';
import { withOpenApi } from './openapi-meta.js';
import type { ParamsVariants } from './variants.js';

/**
 * An action's own fields; under field rules (withFieldRules) when they have some, whose input type the SDK then takes
 * (notes/manage's create: a contactId or a phone).
 */
type Own = z.AnyZodObject | z.ZodEffects<z.AnyZodObject, unknown, unknown>;
type Actions = Record<string, Own>;
type ShapeOf<O extends Own> =
  O extends z.ZodEffects<infer S extends z.AnyZodObject, unknown, unknown>
    ? S['shape']
    : O extends z.AnyZodObject
      ? O['shape']
      : never;

/** One action's whole parameters: the shared fields, `action` fixed to its name, and its own fields, nothing else. */
type ActionObject<Shared extends z.ZodRawShape, A extends string, O extends Own> = z.ZodObject<
  Shared & { action: z.ZodLiteral<A> } & ShapeOf<O>,
  'strict'
>;
type EachAction<Shared extends z.ZodRawShape, V extends Actions> = {
  [A in keyof V & string]: ActionObject<Shared, A, V[A]>;
}[keyof V & string];

/** What the SDK accepts: one shape per action, told apart by `action`, each with its own required fields. */
export type ActionVariantsInput<Shared extends z.ZodRawShape, V extends Actions> = {
  [A in keyof V & string]: V[A] extends z.ZodEffects<z.AnyZodObject, unknown, infer Input>
    ? z.input<ActionObject<Shared, A, V[A]>> & Input
    : z.input<ActionObject<Shared, A, V[A]>>;
}[keyof V & string];
/** The deprecated forms without `action` the SDK still accepts (webhooks/manage's `{endpointId, delete: true}`). */
export type ImpliedActionInput<Shared extends z.ZodRawShape, L extends Record<string, z.AnyZodObject>> = {
  [F in keyof L & string]: z.input<z.ZodObject<Shared & L[F]['shape'], 'strict'>> & { action?: undefined };
}[keyof L & string];
/** What handlers receive: the parsed parameters of the action asked for, narrowed by `action`. */
export type ActionVariantsOutput<Shared extends z.ZodRawShape, V extends Actions> = z.output<EachAction<Shared, V>>;

/** A request without `action`, read as the action it asks for: that action's values, or why it cannot be read. */
export type ImpliedAction = { action: string; values: Record<string, unknown> } | FieldProblem[];

/**
 * The forms an endpoint took before `action` (webhooks/manage): still accepted without it, published as deprecated
 * alternatives and typed in the SDK. A field only they take (`delete: true`) is refused beside an `action`.
 */
export interface ImpliedActions<L extends Record<string, z.AnyZodObject>> {
  forms: L;
  /** The action a request without one asks for, with the values of that action's form. */
  resolve(values: Record<string, unknown>): ImpliedAction;
}

export interface ActionVariantsOptions<
  Shared extends z.ZodRawShape,
  Output,
  L extends Record<string, z.AnyZodObject> = Record<never, z.AnyZodObject>,
> {
  /** The fields every action takes (channelId, platformId). */
  shared: Shared;
  /** The `action` parameter's description. */
  describe: string;
  /** What the actions act on, for the 400 of a missing field: `automationId: is required to delete an automation`. */
  noun: string;
  /**
   * The published field where actions declare one field differently: the widest schema, one description for all.
   * Otherwise a field is the last action's that declares it.
   */
  fields?: z.ZodRawShape;
  /** Rules across fields, run once the action's own fields are valid; the 400 names each field refused. */
  check?(values: Output): FieldProblem[];
  /** Forms without `action` (deprecated), read as an action; then `action` is optional. */
  implied?: ImpliedActions<L>;
}

const shapeOf = (own: Own) => paramsObject(own)!.shape as z.ZodRawShape;

const optionalShape = (shape: z.ZodRawShape) =>
  Object.fromEntries(
    Object.entries(shape).map(([name, field]) => [name, field.isOptional() ? field : field.optional()]),
  );

/**
 * The refusals of the action's own schema, as the 400 names them: a field it needs and `values` lack is missing,
 * whatever its schema says of `undefined` (a union's own message would not say so).
 */
function actionProblems(issue: z.ZodIssue, values: Record<string, unknown>, action: string, noun: string) {
  if (issue.code === z.ZodIssueCode.unrecognized_keys)
    return issue.keys.map((field) => ({ field, problem: `is not a parameter of action "${action}"` }));
  if (issue.path.length === 1 && values[issue.path[0]!] === undefined)
    return [{ field: String(issue.path[0]), problem: `is required to ${action} ${noun}` }];
  return [{ field: issue.path.join('.'), problem: issue.message }];
}

/** The field sets of which an action's field rules need one (withFieldRules' `anyOf`), if it has some. */
const ruledSets = (own: Own) => (own as { metaOpenApi?: { anyOf?: { required: string[] }[] } }).metaOpenApi?.anyOf;

/**
 * Each action's required and optional fields, and the sets its field rules need one of: what the OpenAPI's `oneOf`
 * (and the GET parameters' forms derived from it) state.
 */
const formsOf = (actions: Actions): ParamsVariants['forms'] =>
  Object.fromEntries(
    Object.entries(actions).map(([action, own]) => {
      const shape = shapeOf(own);
      const names = Object.keys(shape);
      const required = names.filter((name) => !shape[name]!.isOptional());
      const anyOf = ruledSets(own);
      return [
        action,
        { required, optional: names.filter((name) => !required.includes(name)), ...(anyOf && { anyOf }) },
      ];
    }),
  );

/** The published variants: one form per action, and the deprecated forms without `action`. */
const variantsOf = (actions: Actions, implied: Actions | undefined): ParamsVariants => ({
  discriminator: 'action',
  forms: formsOf(actions),
  ...(implied && { deprecatedForms: Object.values(formsOf(implied)) }),
});

/** The action a request asks for and its values, from `action` or else from its deprecated form. */
function actionAsked(
  given: Record<string, unknown>,
  implied: ImpliedActions<Record<string, z.AnyZodObject>> | undefined,
): ImpliedAction {
  if (given.action !== undefined || !implied) return { action: String(given.action), values: given };
  const read = implied.resolve(given);
  return Array.isArray(read) ? read : { action: read.action, values: { ...read.values, action: read.action } };
}

/**
 * A `manage` endpoint's parameters, one variant per `action` (`create` needs `name`, `delete` the id): the SDK's
 * input is a discriminated union, the OpenAPI a `oneOf` of one shape per action, and the server's 400 names each
 * field refused and why (missing for this action, a parameter of another action, or the field's own rule). Published
 * as one object of every action's fields (what endpoint() reads for GET coercion and the text rules), checked by the
 * variant its `action` picks.
 */
export function actionVariants<
  const V extends Actions,
  Shared extends z.ZodRawShape,
  L extends Record<string, z.AnyZodObject> = Record<never, z.AnyZodObject>,
>(actions: V, options: ActionVariantsOptions<Shared, ActionVariantsOutput<Shared, V>, L>) {
  type Output = ActionVariantsOutput<Shared, V>;
  const names = Object.keys(actions) as [string, ...string[]];
  const variants = new Map(
    Object.entries(actions).map(([action, own]) => [
      action,
      z.object({ ...options.shared, action: z.literal(action), ...shapeOf(own) }).strict(),
    ]),
  );
  const action = z.enum(names).describe(options.describe);
  const fields = z.object({
    ...options.shared,
    action: options.implied ? action.optional() : action,
    ...Object.assign({}, ...Object.values(options.implied?.forms ?? {}).map((form) => optionalShape(form.shape))),
    ...Object.assign({}, ...Object.values(actions).map((own) => optionalShape(shapeOf(own)))),
    ...options.fields,
  });
  const described = withOpenApi(fields, { variants: variantsOf(actions, options.implied?.forms) });
  const checked = described.transform((values, ctx) => {
    const given = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
    const asked = actionAsked(given, options.implied);
    const result = Array.isArray(asked) ? asked : actionValues<Output>(asked, actions, variants, options);
    if (!Array.isArray(result)) return result;
    for (const { field, problem } of result)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message: problem });
    return z.NEVER;
  });
  // The flat object's own input type is every field optional; callers see the variants.
  return checked as z.ZodEffects<typeof fields, Output, ActionVariantsInput<Shared, V> | ImpliedActionInput<Shared, L>>;
}

/** The values of the action asked for, checked by its variant, its own field rules and the endpoint's; or why not. */
function actionValues<Output>(
  { action, values }: { action: string; values: Record<string, unknown> },
  actions: Actions,
  variants: Map<string, z.AnyZodObject>,
  options: Pick<ActionVariantsOptions<z.ZodRawShape, Output>, 'noun' | 'check'>,
): Output | FieldProblem[] {
  const parsed = variants.get(action)!.safeParse(values);
  if (!parsed.success)
    return parsed.error.issues.flatMap((issue) => actionProblems(issue, values, action, options.noun));
  const own = actions[action]!;
  const ruled = own instanceof z.ZodEffects ? own.safeParse(values) : undefined;
  if (ruled && !ruled.success)
    return ruled.error.issues.map((issue) => ({ field: issue.path.join('.'), problem: issue.message }));
  const problems = options.check?.(parsed.data as Output) ?? [];
  return problems.length ? problems : (parsed.data as Output);
}
