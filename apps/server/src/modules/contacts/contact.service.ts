import { CONTACTS_SEARCH_COUNT_CAP, type Contact, type Pagination } from '@switchboard/contract';
import { isoTimestamp } from '../../db/sql.js';
import type { RequestContext } from '../../http/context.js';
import { contactSearch, type SqlCondition } from './contact.search.js';

export interface ContactQuery {
  page: number;
  limit: number;
  search?: string;
}

/**
 * One page in one statement: the page of contacts is cut first (index order, LIMIT/OFFSET), then each of
 * those rows gets its labels as a JSON array from a lateral subquery, so labels cost nothing for skipped rows.
 */
async function contactPage(ctx: RequestContext, channelId: string, search: SqlCondition | undefined, limit: number, offset: number) {
  return ctx.em.execute<Contact[]>(
    `select c.id, c.name, c.phone, c.email, c.status, c.custom_fields as "customFields",
            ${isoTimestamp('c.created_at', 'createdAt')}, ${isoTimestamp('c.updated_at', 'updatedAt')},
            coalesce(l.labels, '[]'::json) as labels
       from (select id, name, phone, email, status, custom_fields, created_at, updated_at
               from contacts c
              where c.channel_id = ?${search ? ` and ${search.sql}` : ''}
              order by c.created_at desc, c.id desc
              limit ? offset ?) c
       left join lateral (
             select json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color) order by l.sort_order, l.name) as labels
               from contact_labels cl join labels l on l.id = cl.label_id
              where cl.contact_id = c.id and l.channel_id = ?) l on true
      order by c.created_at desc, c.id desc`,
    [channelId, ...(search?.params ?? []), limit, offset, channelId],
  );
}

/** Exact, from the trigger-maintained counter (see the contact_counts migration). */
async function channelTotal(ctx: RequestContext, channelId: string): Promise<number> {
  const [row] = await ctx.em.execute<{ total: number }[]>(`select total from channel_contact_counts where channel_id = ?`, [channelId]);
  return row?.total ?? 0;
}

/** Matches of a search, counted exactly up to the cap: a broad term stops costing once the cap is reached. */
async function searchTotal(ctx: RequestContext, channelId: string, search: SqlCondition): Promise<number> {
  const [row] = await ctx.em.execute<{ total: number }[]>(
    `select count(*)::int as total from (select 1 from contacts c where c.channel_id = ? and ${search.sql} limit ?) matches`,
    [channelId, ...search.params, CONTACTS_SEARCH_COUNT_CAP],
  );
  return row!.total;
}

function pagination(page: number, limit: number, total: number): Pagination {
  return { page, limit, total, pages: Math.ceil(total / limit) };
}

export async function listContacts(ctx: RequestContext, channelId: string, query: ContactQuery) {
  const { page, limit } = query;
  const offset = (page - 1) * limit;
  if (!query.search) {
    const total = await channelTotal(ctx, channelId);
    const data = offset < total ? await contactPage(ctx, channelId, undefined, limit, offset) : [];
    return { data, pagination: pagination(page, limit, total) };
  }
  const search = contactSearch(query.search);
  const data = await contactPage(ctx, channelId, search, limit, offset);
  // A short page that is not past the end already tells the exact total: most searches need no count at all.
  // Otherwise count; a full page proves at least offset + limit matches, which a capped count may not reach.
  const seen = data.length > 0 ? offset + data.length : 0;
  const endSeen = data.length < limit && (data.length > 0 || offset === 0);
  const total = endSeen ? seen : Math.max(await searchTotal(ctx, channelId, search), seen);
  return { data, pagination: pagination(page, limit, total) };
}
