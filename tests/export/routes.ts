import { contract, contractRoutes as routesOf, type EndpointMetadata } from '@switchboard/contract';

export interface ContractRoute {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  responses: Record<string, unknown>;
  metadata: EndpointMetadata;
}

/** Every route of the contract (a POST and a GET per endpoint): what the exports must cover, read from the source. */
export function contractRoutes(): ContractRoute[] {
  return routesOf(contract) as ContractRoute[];
}

/** Writes (`api_write`, `api_admin_write`) take an Idempotency-Key; reads do not. */
export const isWrite = (route: { metadata: { rateClass: string } }) =>
  ['api_write', 'api_message', 'api_admin_write'].includes(route.metadata.rateClass);

/** The Postman collection's requests as `METHOD path`: one per route, one per further example of a POST. */
export const collectionRoutes = (routes: readonly ContractRoute[] = contractRoutes()) =>
  routes.flatMap((route) => {
    const more = route.method === 'POST' ? Object.keys(route.metadata.moreExamples ?? {}).length : 0;
    return Array.from({ length: 1 + more }, () => `${route.method} ${route.path}`);
  });

export const collectionRequestCount = (routes: readonly ContractRoute[]) => collectionRoutes(routes).length;
