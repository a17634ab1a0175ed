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
/** What handlers receive: the parsed parameters of the action asked for, narrowed by `action`. */
export type ActionVariantsOutput<Shared extends z.ZodRawShape, V extends Actions> = z.output<EachAction<Shared, V>>;

export interface ActionVariantsOptions<Shared extends z.ZodRawShape, Output> {
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
}

const shapeOf = (own: Own) => paramsObject(own)!.shape as z.ZodRawShape;

const optionalShape = (shape: z.ZodRawShape) =>
  Object.fromEntries(
    Object.entries(shape).map(([name, field]) => [name, field.isOptional() ? field : field.optional()]),
  );

/** The refusals of the action's own schema, as the 400 names them. */
function actionProblems(issue: z.ZodIssue, action: string, noun: string): FieldProblem[] {
  if (issue.code === z.ZodIssueCode.unrecognized_keys)
    return issue.keys.map((field) => ({ field, problem: `is not a parameter of action "${action}"` }));
  if (issue.code === z.ZodIssueCode.invalid_type && issue.received === 'undefined' && issue.path.length === 1)
    return [{ field: String(issue.path[0]), problem: `is required to ${action} ${noun}` }];
  return [{ field: issue.path.join('.'), problem: issue.message }];
}

/** Each action's required and optional fields: what the OpenAPI's `oneOf` and the MCP tools state. */
const formsOf = (actions: Actions): ParamsVariants['forms'] =>
  Object.fromEntries(
    Object.entries(actions).map(([action, own]) => {
      const shape = shapeOf(own);
      const names = Object.keys(shape);
      const required = names.filter((name) => !shape[name]!.isOptional());
      return [action, { required, optional: names.filter((name) => !required.includes(name)) }];
    }),
  );

/**
 * A `manage` endpoint's parameters, one variant per `action` (`create` needs `name`, `delete` the id): the SDK's
 * input is a discriminated union, the OpenAPI a `oneOf` of one shape per action, and the server's 400 names each
 * field refused and why (missing for this action, a parameter of another action, or the field's own rule). Published
 * as one object of every action's fields (what endpoint() reads for GET coercion and the text rules), checked by the
 * variant its `action` picks.
 */
export function actionVariants<const V extends Actions, Shared extends z.ZodRawShape>(
  actions: V,
  options: ActionVariantsOptions<Shared, ActionVariantsOutput<Shared, V>>,
) {
  type Output = ActionVariantsOutput<Shared, V>;
  const names = Object.keys(actions) as [string, ...string[]];
  const variants = new Map(
    Object.entries(actions).map(([action, own]) => [
      action,
      z.object({ ...options.shared, action: z.literal(action), ...shapeOf(own) }).strict(),
    ]),
  );
  const fields = z.object({
    ...options.shared,
    action: z.enum(names).describe(options.describe),
    ...Object.assign({}, ...Object.values(actions).map((own) => optionalShape(shapeOf(own)))),
    ...options.fields,
  });
  const described = withOpenApi(fields, { variants: { discriminator: 'action', forms: formsOf(actions) } });
  const checked = described.transform((values, ctx) => {
    const given = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
    const parsed = variants.get(values.action)!.safeParse(given);
    const own = actions[values.action]!;
    const ruled = parsed.success && own instanceof z.ZodEffects ? own.safeParse(given) : undefined;
    const problems = !parsed.success
      ? parsed.error.issues.flatMap((issue) => actionProblems(issue, values.action, options.noun))
      : ruled && !ruled.success
        ? ruled.error.issues.map((issue) => ({ field: issue.path.join('.'), problem: issue.message }))
        : (options.check?.(parsed.data as Output) ?? []);
    for (const { field, problem } of problems)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message: problem });
    return problems.length ? z.NEVER : (parsed.data as Output);
  });
  // The flat object's own input type is every field optional; callers see the variants.
  return checked as z.ZodEffects<typeof fields, Output, ActionVariantsInput<Shared, V>>;
}
