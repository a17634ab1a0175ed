import { contract, type EndpointMetadata } from '@switchboard/contract';

export interface ContractRoute {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  responses: Record<string, unknown>;
  metadata: EndpointMetadata;
}
type Tree = { [name: string]: Tree | ContractRoute };

/** Every route of the contract (a POST and a GET per endpoint): what the exports must cover, read from the source. */
export function contractRoutes(tree: Tree = contract as unknown as Tree): ContractRoute[] {
  return Object.values(tree).flatMap((node) => ('method' in node && 'path' in node ? [node as ContractRoute] : contractRoutes(node as Tree)));
}
