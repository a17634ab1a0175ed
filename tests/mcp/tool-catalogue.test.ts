import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  contract,
  contractEndpoints,
  endpointEffects,
  paramsObject,
  type ContractEndpoint,
  type ParamsVariants,
} from '@switchboard/contract';
import { TOOLS, type ToolSpec } from '@switchboard/mcp';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { paramsFor } from '../hostile/arbitraries.js';

const ENDPOINTS = contractEndpoints(contract);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = 20_261_206;
/** The validator MCP clients (the official SDK's) check schemas with. */
const validator = new AjvJsonSchemaValidator();

const toolOf = (endpoint: ContractEndpoint): ToolSpec => {
  const tool = TOOLS.find((candidate) => candidate.path === endpoint.post.path);
  if (!tool) throw new Error(`No tool for ${endpoint.post.path}`);
  return tool;
};
/** A string whose length zod and JSON Schema measure apart: astral characters, or space the schema trims first. */
const measuredApart = (value: unknown) =>
  typeof value === 'string' && (/[\ud800-\udfff]/.test(value) || value.trim() !== value);

/**
 * Refusals a JSON Schema does not state, left to the API's 400 (which names the field): rules across fields, the text
 * rules (control characters), formats checked differently, and lengths measured apart (zod counts UTF-16 code units
 * of the trimmed text, JSON Schema characters of the text as sent).
 */
function unstatable(issue: z.ZodIssue, params: Record<string, unknown>): boolean {
  if (issue.code === 'custom' || issue.code === 'invalid_string') return true;
  if (issue.code === 'invalid_union')
    return issue.unionErrors.some((e) => e.issues.every((i) => unstatable(i, params)));
  if (issue.code === 'too_big' || issue.code === 'too_small') {
    const value = issue.path.reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], params);
    return measuredApart(value) || (Array.isArray(value) && value.some(measuredApart));
  }
  return false;
}

/** A refusal by length of a text that JSON Schema measures in characters and zod in UTF-16 code units. */
const lengthMeasuredApart = (refusal: string | undefined, params: Record<string, unknown>) =>
  /^(data\/\w+ must NOT have (fewer|more) than \d+ characters(, )?)+$/.test(refusal ?? '') &&
  Object.values(params).some(measuredApart);

const variantsOf = (body: z.ZodTypeAny) =>
  (paramsObject(body) as { metaOpenApi?: { variants?: ParamsVariants } }).metaOpenApi?.variants;

/**
 * Whether parameters complete the form their discriminator picks (automations/manage's `action`): a rule the contract
 * states beside the schema (its `variants`), checked by the server, and stated by the OpenAPI and the tools alike.
 */
function completesForm(body: z.ZodTypeAny, params: Record<string, unknown>): boolean {
  const variants = variantsOf(body);
  if (!variants) return true;
  const chosen = params[variants.discriminator] ?? paramsObject(body)!.parse(params)[variants.discriminator];
  return (variants.forms[chosen as string]?.required ?? []).every((field) => params[field] !== undefined);
}

/**
 * What the tool leaves out of the contract's parameters: the forms without a discriminator, deprecated (webhooks/manage
 * before `action`), and the fields only they take. An agent is a new client: it is offered the current forms.
 */
function deprecatedForms(body: z.ZodTypeAny) {
  const variants = variantsOf(body);
  const current = new Set(Object.values(variants?.forms ?? {}).flatMap((form) => [...form.required, ...form.optional]));
  const fields = (variants?.deprecatedForms ?? []).flatMap((form) => [...form.required, ...form.optional]);
  return {
    discriminator: variants?.deprecatedForms ? variants.discriminator : undefined,
    onlyTheirs: new Set(fields.filter((field) => !current.has(field))),
  };
}

describe('the MCP tools, held to the contract', () => {
  it('has one tool per contract endpoint, named from its path, and no other', () => {
    expect(TOOLS.map((tool) => tool.path)).toEqual(ENDPOINTS.map((endpoint) => endpoint.post.path));
    for (const tool of TOOLS) {
      const [, , area, , ...words] = tool.path.split('/');
      const expected = [...(area === 'platform' ? ['platform'] : []), ...words].join('_').replaceAll('-', '_');
      expect(tool.name).toBe(expected);
      expect(tool.name).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
    }
    expect(new Set(TOOLS.map((tool) => tool.name)).size).toBe(TOOLS.length);
  });

  it.for(ENDPOINTS.map((endpoint) => ({ name: endpoint.post.path, endpoint })))(
    '$name: same parameters as the contract, accepts all it accepts, refuses what it refuses by type',
    ({ endpoint }) => {
      const tool = toolOf(endpoint);
      const body = endpoint.post.body as z.ZodTypeAny;
      const shape = paramsObject(body)!.shape as z.ZodRawShape;
      const deprecated = deprecatedForms(body);
      const offered = Object.keys(shape).filter((name) => !deprecated.onlyTheirs.has(name));
      expect(Object.keys(tool.inputSchema.properties as object).sort()).toEqual(offered.sort());
      const required = Object.entries(shape)
        .filter(([name, field]) => !field.isOptional() || name === deprecated.discriminator)
        .map(([name]) => name);
      expect(((tool.inputSchema.required as string[] | undefined) ?? []).sort()).toEqual(required.sort());
      expect(tool.inputSchema.additionalProperties).toBe(false);

      const validate = validator.getValidator(tool.inputSchema);
      const example = endpoint.post.metadata.example;
      expect(validate(example).valid, JSON.stringify(validate(example).errorMessage)).toBe(true);
      fc.assert(
        fc.property(paramsFor(paramsObject(body)!, example), (params) => {
          const byContract = body.safeParse(params);
          const bySchema = validate(params);
          if (deprecated.discriminator && params[deprecated.discriminator] === undefined) return !bySchema.valid;
          if (byContract.success && completesForm(body, params))
            return bySchema.valid || lengthMeasuredApart(bySchema.errorMessage, params);
          if (byContract.success) return !bySchema.valid;
          return !bySchema.valid || byContract.error.issues.every((issue) => unstatable(issue, params));
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
  );

  it('annotates every tool from its endpoint’s stated effects', () => {
    for (const { post } of ENDPOINTS) {
      const effects = endpointEffects(post);
      expect(effects, `${post.path}: declare its effects in the contract`).toBeDefined();
      const tool = toolOf({ post } as ContractEndpoint);
      expect(tool.annotations).toEqual({
        title: post.summary,
        readOnlyHint: effects!.readOnly,
        destructiveHint: effects!.destructive,
        idempotentHint: effects!.idempotent,
        openWorldHint: effects!.openWorld,
      });
      // A read costs the read budget; anything that changes something, a write budget.
      expect(effects!.readOnly, post.path).toBe(post.metadata.rateClass === 'api_read');
      // A single send cannot be taken back; a customer's message played on the sandbox reaches nobody.
      const played = post.path === contract.workspace.sandbox.receive.post.path;
      if ((post.metadata.rateClass === 'api_message' && !played) || post.path.endsWith('/send'))
        expect(effects!.destructive, post.path).toBe(true);
    }
  });

  it('describes each tool with its endpoint’s summary and description, and its reply as the envelope’s data', () => {
    for (const { post } of ENDPOINTS) {
      const tool = toolOf({ post } as ContractEndpoint);
      expect(tool.description.startsWith(post.summary!)).toBe(true);
      expect(tool.description).toContain(`Rate limit class: \`${post.metadata.rateClass}\``);
      expect(tool.description).not.toMatch(/Accepts POST/);
      const envelope = post.responses[200] as z.AnyZodObject;
      const { success: _success, ...fields } = envelope.shape as z.ZodRawShape;
      expect(Object.keys(tool.outputSchema.properties as object).sort()).toEqual(Object.keys(fields).sort());
      expect(tool.outputSchema.required).toContain('data');
    }
  });
});
