import type { CustomField } from '@switchboard/contract';
import type { ServiceContext } from '../../kit/context.js';
import { CustomField as CustomFieldEntity } from './custom-field.entity.js';

/** Definitions by displayOrder; `options` only for `select` fields (an empty list if a select has none stored). */
export async function listCustomFields(ctx: ServiceContext, channelId: string): Promise<CustomField[]> {
  const fields = await ctx.em.find(
    CustomFieldEntity,
    { channel: channelId },
    {
      fields: ['name', 'type', 'isRequired', 'options', 'displayOrder'],
      orderBy: { displayOrder: 'asc', name: 'asc' },
    },
  );
  return fields.map((f) => ({
    id: f.id,
    name: f.name,
    type: f.type,
    isRequired: f.isRequired,
    options: f.type === 'select' ? (f.options ?? []) : null,
    displayOrder: f.displayOrder,
  }));
}
