import type { AccessRule } from '@switchboard/contract';
import type { NextFunction, Request, Response } from 'express';
import { ForbiddenError } from '../kit/errors.js';
import type { Caller } from '../kit/context.js';
import { routeMetadata } from './context.js';

/** The one place route access rules from the contract are enforced. */
export function assertAccess(caller: Caller, access: AccessRule): void {
  if (access.scope !== 'platform') return;
  if (!caller.platformAccess) {
    throw new ForbiddenError('This endpoint needs an API key of an account with platform-level access.');
  }
  if (access.anyPermission && !access.anyPermission.some((p) => caller.permissions.includes(p))) {
    throw new ForbiddenError(`This endpoint needs one of the permissions: ${access.anyPermission.join(', ')}.`);
  }
}

export function authorize(req: Request, _res: Response, next: NextFunction) {
  const metadata = routeMetadata(req);
  try {
    if (metadata && req.caller) assertAccess(req.caller, metadata.access);
    next();
  } catch (error) {
    next(error);
  }
}
