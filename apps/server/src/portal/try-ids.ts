import type { EntityManager } from '@mikro-orm/postgresql';
import { EXAMPLE_IDS, type ExampleIdName } from '@switchboard/contract';
import type { PostmanEnvironment } from '@switchboard/openapi';

type TryIds = Partial<Record<ExampleIdName, string>>;

/**
 * Ids of the signed-in user's own tenant for the reference's example requests: their platform, their first channel,
 * a user with an active base subscription (themselves first), an active add-on, the latest ticket and their first
 * webhook endpoint, so "Send" works as it stands. Never a contact: "Send" on contacts/delete must not delete a real
 * one (the sample id gives 404).
 */
async function tryIds(em: EntityManager, userId: string): Promise<TryIds> {
  const [row] = await em.execute<TryIds[]>(
    `select u.platform_id as "platformId",
            (select cu.channel_id from channel_users cu join channels c on c.id = cu.channel_id
              where cu.user_id = u.id order by c.created_at, c.id limit 1) as "channelId",
            coalesce((select s.user_id from subscriptions s join users su on su.id = s.user_id
              where su.platform_id = u.platform_id and s.status = 'active'
              order by (s.user_id = u.id) desc, s.created_at limit 1), u.id) as "userId",
            (select p.id from plans p where p.platform_id = u.platform_id and p.item_type = 'addon' and p.is_active
              order by p.created_at, p.id limit 1) as "addonId",
            (select t.id from tickets t where t.platform_id = u.platform_id
              order by t.updated_at desc, t.id desc limit 1) as "ticketId",
            (select w.id from webhook_endpoints w where w.platform_id = u.platform_id
              order by w.created_at, w.id limit 1) as "webhookEndpointId"
       from users u where u.id = ?`,
    [userId],
  );
  return row ?? {};
}

/** The OpenAPI text with the contract's sample ids (EXAMPLE_IDS) replaced by the user's own; unknown ones stay. */
export async function withUserIds(openApiJson: string, em: EntityManager, userId: string): Promise<string> {
  const ids = await tryIds(em, userId);
  let text = openApiJson;
  for (const [name, sample] of Object.entries(EXAMPLE_IDS)) {
    const own = ids[name as ExampleIdName];
    if (own) text = text.replaceAll(sample, own);
  }
  return text;
}

/**
 * The Postman environment with the user's own ids filled in, so the collection runs once the key is pasted. Never
 * the API key (only its owner has it, shown once) and never a contact (contacts/delete makes its own).
 */
export async function environmentWithUserIds(environment: PostmanEnvironment, em: EntityManager, userId: string): Promise<string> {
  const ids = await tryIds(em, userId);
  const values = environment.values.map((entry) => ({ ...entry, value: ids[entry.key as ExampleIdName] ?? entry.value }));
  return `${JSON.stringify({ ...environment, values }, null, 2)}\n`;
}
