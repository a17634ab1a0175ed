import type { EndpointMetadata } from '@switchboard/contract';
import type { Request } from 'express';

/** The contract metadata ts-rest attaches to the matched route. */
export function routeMetadata(req: Request): EndpointMetadata | undefined {
  const route = (req as Request & { tsRestRoute?: { metadata?: EndpointMetadata } }).tsRestRoute;
  return route?.metadata;
}
