import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import type { z } from 'zod';
import type { EndpointMetadata } from './access.js';

/** A route of the contract: each is made by `endpoint()`, so it carries its endpoint's metadata and zod schemas. */
export type ContractRoute = AppRoute & {
  metadata: EndpointMetadata;
  responses: Record<number, z.ZodTypeAny>;
  body?: z.ZodTypeAny;
};

/**
 * One endpoint: where it sits in the contract tree (the SDK method's path, e.g. `workspace.contacts.list`) and its two
 * routes.
 */
export interface ContractEndpoint {
  at: string[];
  post: ContractRoute;
  get: ContractRoute;
}

type Node = AppRouter | AppRoute;
const isRoute = (node: Node | undefined): node is AppRoute => node !== undefined && isAppRoute(node);
const isEndpoint = (node: Node): node is { post: AppRoute; get: AppRoute } =>
  !isAppRoute(node) && isRoute(node.post) && isRoute(node.get);

/** Every endpoint under a contract (sub)tree, depth first in declaration order. */
export function contractEndpoints(router: AppRouter, at: readonly string[] = []): ContractEndpoint[] {
  return Object.entries(router).flatMap(([name, node]) => {
    const place = [...at, name];
    if (isEndpoint(node)) return [{ at: place, post: node.post as ContractRoute, get: node.get as ContractRoute }];
    return isAppRoute(node) ? [] : contractEndpoints(node, place);
  });
}

/** Every route under a contract (sub)tree, depth first in declaration order: a POST and a GET per endpoint. */
export function contractRoutes(router: AppRouter): ContractRoute[] {
  return Object.values(router).flatMap((node) => (isAppRoute(node) ? [node as ContractRoute] : contractRoutes(node)));
}
