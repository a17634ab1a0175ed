/**
 * What calling an endpoint does to the world, for a client that must tell a look from a change before it calls: an
 * agent's host asks a person before a send, not before a list. The MCP tools' annotations are made from it.
 */
export interface EndpointEffects {
  /** Changes nothing. */
  readonly readOnly: boolean;
  /** May remove or stop something, or do what cannot be taken back (a message that reached a customer). */
  readonly destructive: boolean;
  /** A repeat with the same parameters changes nothing more. */
  readonly idempotent: boolean;
  /** Reaches beyond this deployment: a customer's phone, Meta, an e-mail, a webhook receiver. */
  readonly openWorld: boolean;
}

const READ: EndpointEffects = { readOnly: true, destructive: false, idempotent: true, openWorld: false };
const REMOVE: EndpointEffects = { readOnly: false, destructive: true, idempotent: true, openWorld: false };

/**
 * What an endpoint's last path word says on its own. Other words (`manage`, `sync`, `read`) say too little: such an
 * endpoint declares its `effects` in the contract.
 */
const BY_LAST_PATH_WORD: Readonly<Record<string, EndpointEffects>> = {
  list: READ,
  get: READ,
  status: READ,
  runs: READ,
  recipients: READ,
  deliveries: READ,
  stream: READ,
  delete: REMOVE,
  cancel: REMOVE,
  // A message that reached a customer cannot be taken back; a repeat sends another.
  send: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
};

/** An endpoint's effects: as declared, else as its last path word says; undefined when neither tells. */
export function endpointEffects(route: {
  path: string;
  metadata: { effects?: EndpointEffects | undefined };
}): EndpointEffects | undefined {
  return route.metadata.effects ?? BY_LAST_PATH_WORD[route.path.split('/').at(-1) ?? ''];
}
