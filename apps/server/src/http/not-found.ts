import { contract } from '@switchboard/contract';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors.js';

function routesOf(router: AppRouter): AppRoute[] {
  return Object.values(router).flatMap((node) => (isAppRoute(node) ? [node] : routesOf(node)));
}

const METHODS_BY_PATH = routesOf(contract).reduce((map, route) => {
  map.set(route.path, [...(map.get(route.path) ?? []), route.method]);
  return map;
}, new Map<string, string[]>());

/** Whatever no route answered: 405 for a known path with another method, 404 otherwise, both in the envelope. */
export function notFound(req: Request, res: Response, next: NextFunction) {
  const allowed = METHODS_BY_PATH.get(req.path);
  if (allowed) {
    res.setHeader('Allow', allowed.join(', '));
    return next(new AppError(405, 'method_not_allowed', `${req.method} is not supported here; use ${allowed.join(' or ')}.`));
  }
  next(new AppError(404, 'not_found', `No endpoint at ${req.method} ${req.path}.`));
}
