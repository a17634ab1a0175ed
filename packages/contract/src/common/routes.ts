import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';

/** Every route under a contract (sub)tree, depth first in declaration order: a POST and a GET per endpoint. */
export function contractRoutes(router: AppRouter): AppRoute[] {
  return Object.values(router).flatMap((node) => (isAppRoute(node) ? [node] : contractRoutes(node)));
}
