import type { EntityManager } from '@mikro-orm/postgresql';
import { EXAMPLE_IDS, type ExampleIdName } from '@switchboard/contract';
import type { PostmanEnvironment } from '@switchboard/openapi';
import type { ExampleViewer } from '../kit/module.js';
import { exampleIds } from '../wiring.js';

/**
 * The signed-in user's own ids for the contract's samples, as each module finds them (its platform, first channel,
 * newest ticket, ...). Ids the user has none of, and ids no module fills (never a contact: "Send" on contacts/delete
 * must not delete a real one), are left out.
 */
async function ownIds(em: EntityManager, viewer: ExampleViewer): Promise<Map<ExampleIdName, string>> {
  const own = await Promise.all(
    exampleIds.map(async ([name, example]) => [name, await example.of(em, viewer)] as const),
  );
  return new Map(own.flatMap(([name, id]) => (id ? [[name, id] as const] : [])));
}

/**
 * The OpenAPI text with the contract's sample ids (EXAMPLE_IDS) replaced by the user's own, so "Send" works as it
 * stands.
 */
export async function withUserIds(openApiJson: string, em: EntityManager, viewer: ExampleViewer): Promise<string> {
  let text = openApiJson;
  for (const [name, id] of await ownIds(em, viewer)) text = text.replaceAll(EXAMPLE_IDS[name], id);
  return text;
}

/**
 * The Postman environment with the user's own ids filled in, so the collection runs once the key is pasted. Never
 * the API key (only its owner has it, shown once) and never a contact (contacts/delete makes its own).
 */
export async function environmentWithUserIds(
  environment: PostmanEnvironment,
  em: EntityManager,
  viewer: ExampleViewer,
): Promise<string> {
  const ids = await ownIds(em, viewer);
  const values = environment.values.map((entry) => ({
    ...entry,
    value: ids.get(entry.key as ExampleIdName) ?? entry.value,
  }));
  return `${JSON.stringify({ ...environment, values }, null, 2)}\n`;
}
