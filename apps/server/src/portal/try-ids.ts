import type { EntityManager } from '@mikro-orm/postgresql';
import { EXAMPLE_IDS } from '@switchboard/contract';
import type { ExampleViewer } from '../kit/module.js';
import { exampleIds } from '../wiring.js';

/**
 * The OpenAPI text with the contract's sample ids (EXAMPLE_IDS) replaced by the signed-in user's own, as each module
 * finds them (its platform, first channel, newest ticket, ...), so "Send" works as it stands. Ids the user has none
 * of, and ids no module fills (never a contact: "Send" on contacts/delete must not delete a real one), stay samples.
 */
export async function withUserIds(openApiJson: string, em: EntityManager, viewer: ExampleViewer): Promise<string> {
  const own = await Promise.all(exampleIds.map(async ([name, example]) => [name, await example.of(em, viewer)] as const));
  let text = openApiJson;
  for (const [name, id] of own) if (id) text = text.replaceAll(EXAMPLE_IDS[name], id);
  return text;
}
