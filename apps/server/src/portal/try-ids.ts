import type { EntityManager } from '@mikro-orm/postgresql';
import { contract, contractEndpoints, EXAMPLE_IDS, type ExampleIdName } from '@switchboard/contract';
import type { PostmanEnvironment } from '@switchboard/openapi';
import { assertAccess } from '../http/guards.js';
import type { Caller } from '../kit/context.js';
import { exampleIds } from '../wiring.js';

/** The access rules of the endpoints whose examples use each sample id. */
const RULES_BY_ID = new Map(
  (Object.keys(EXAMPLE_IDS) as ExampleIdName[]).map((name) => [
    name,
    contractEndpoints(contract)
      .filter((endpoint) => JSON.stringify(endpoint.post.metadata.example).includes(EXAMPLE_IDS[name]))
      .map((endpoint) => endpoint.post.metadata.access),
  ]),
);

/** Whether the caller may call at least one endpoint whose example uses this id: else the id is not theirs to see. */
function mayUse(caller: Caller, name: ExampleIdName): boolean {
  return (RULES_BY_ID.get(name) ?? []).some((rule) => {
    try {
      assertAccess(caller, rule);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The signed-in user's own ids for the contract's samples, as each module finds them (its platform, first channel,
 * newest ticket, ...), for the endpoints the API lets this user call (a user without platform-level access gets no
 * platform, ticket or webhook id). Ids the user has none of, and ids no module fills (never a contact: "Send" on
 * contacts/delete must not delete a real one), are left out.
 */
async function ownIds(em: EntityManager, caller: Caller): Promise<Map<ExampleIdName, string>> {
  const viewer = { userId: caller.userId, platformId: caller.platformId };
  const own = await Promise.all(
    exampleIds
      .filter(([name]) => mayUse(caller, name))
      .map(async ([name, example]) => [name, await example.of(em, viewer)] as const),
  );
  return new Map(own.flatMap(([name, id]) => (id ? [[name, id] as const] : [])));
}

/**
 * The OpenAPI text with the contract's sample ids (EXAMPLE_IDS) replaced by the user's own, so "Send" works as it
 * stands.
 */
export async function withUserIds(openApiJson: string, em: EntityManager, caller: Caller): Promise<string> {
  let text = openApiJson;
  for (const [name, id] of await ownIds(em, caller)) text = text.replaceAll(EXAMPLE_IDS[name], id);
  return text;
}

/**
 * The Postman environment with the user's own ids filled in, so the collection runs once the key is pasted. Never
 * the API key (only its owner has it, shown once) and never a contact (contacts/delete makes its own).
 */
export async function environmentWithUserIds(
  environment: PostmanEnvironment,
  em: EntityManager,
  caller: Caller,
): Promise<string> {
  const ids = await ownIds(em, caller);
  const values = environment.values.map((entry) => ({
    ...entry,
    value: ids.get(entry.key as ExampleIdName) ?? entry.value,
  }));
  return `${JSON.stringify({ ...environment, values }, null, 2)}\n`;
}
