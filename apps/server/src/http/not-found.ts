import { contractRoutes } from '@switchboard/contract';
import type { AppRouter } from '@ts-rest/core';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../kit/errors.js';

/**
 * Whatever no route answered: 405 for a path the mounted contract slices (or a stream) know with another method,
 * 404 otherwise, both in the envelope.
 */
export function notFound(routers: readonly AppRouter[], streams: readonly { path: string; method: string }[] = []) {
  const methodsByPath = new Map<string, string[]>();
  for (const route of [...routers.flatMap(contractRoutes), ...streams])
    methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method]);
  return (req: Request, res: Response, next: NextFunction) => {
    const allowed = methodsByPath.get(req.path);
    if (allowed) {
      res.setHeader('Allow', allowed.join(', '));
      return next(
        new AppError(405, 'method_not_allowed', `${req.method} is not supported here; use ${allowed.join(' or ')}.`),
      );
    }
    next(new AppError(404, 'not_found', `No endpoint at ${req.method} ${req.path}.`));
  };
}
