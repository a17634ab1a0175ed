import type { NextFunction, Request, Response } from 'express';
import { paramsObject } from '@switchboard/contract';
import { z } from 'zod';
import { ValidationError, type FieldIssue } from '../kit/errors.js';

/** Does this parameter's schema take a list (e.g. templates/send `variables`)? Then `a=1&a=2` is that list. */
function acceptsList(schema: z.ZodTypeAny | undefined): boolean {
  if (!schema) return false;
  if (schema instanceof z.ZodArray) return true;
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodTypeAny[]).some(acceptsList);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return acceptsList(schema.unwrap());
  if (schema instanceof z.ZodDefault) return acceptsList(schema.removeDefault());
  if (schema instanceof z.ZodEffects) return acceptsList(schema.innerType());
  return false;
}

function queryShape(req: Request): z.ZodRawShape {
  const route = (req as Request & { tsRestRoute?: { query?: unknown } }).tsRestRoute;
  return route?.query instanceof z.ZodType ? ((paramsObject(route.query)?.shape ?? {}) as z.ZodRawShape) : {};
}

/**
 * API parameters are flat. Bracket syntax (`a[]=1`, `a[b]=1`) means something in other frameworks and nothing
 * here, so it is refused rather than dropped; a repeated key is a list only where the parameter takes one.
 */
export function rejectNestedQuery(req: Request, _res: Response, next: NextFunction) {
  const names = Object.keys(req.query);
  if (!names.length) return next();
  const shape = queryShape(req);
  const issues: FieldIssue[] = [];
  for (const name of names) {
    const value = req.query[name];
    if (name.includes('[') || name.includes(']')) {
      issues.push({ field: name, problem: `bracket syntax is not supported; send ${name.split('[')[0]}=value` });
    } else if (Array.isArray(value) && !acceptsList(shape[name])) {
      issues.push({ field: name, problem: 'given more than once; send it once' });
    }
  }
  next(issues.length ? new ValidationError(issues) : undefined);
}
