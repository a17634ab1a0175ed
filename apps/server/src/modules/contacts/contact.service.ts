import { CONTACTS_SEARCH_COUNT_CAP, type Contact, type Pagination } from '@switchboard/contract';
import { isoTimestamp } from '../../db/sql.js';
import type { RequestContext } from '../../http/context.js';
import { contactSearch, type SqlCondition } from './contact.search.js';

export interface ContactQuery {
  page: number;
  limit: number;
  search?: string;
}

/** A page of contacts `c`, cut in index order before anything else is computed for its rows. */
const pageOf = (where: string) =>
  `select id, name, phone, email, status, custom_fields, created_at, updated_at
     from contacts c where ${where}
    order by c.created_at desc, c.id desc
    limit ? offset ?`;

/** The contact fields, with each contact's labels as a JSON array from a lateral subquery (one statement, no N+1). */
const CONTACT_COLUMNS = `c.id, c.name, c.phone, c.email, c.status, c.custom_fields as "customFields",
  ${isoTimestamp('c.created_at', 'createdAt')}, ${isoTimestamp('c.updated_at', 'updatedAt')},
  coalesce(l.labels, '[]'::json) as labels`;
const WITH_LABELS = `left join lateral (
    select json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color) order by l.sort_order, l.name) as labels
      from contact_labels cl join labels l on l.id = cl.label_id
     where cl.contact_id = c.id and l.channel_id = ?) l on true`;

/**
 * Without a search: the page and the channel's exact total (the trigger-maintained counter, see the
 * contact_counts migration) in one statement. A page at or past the end is not even scanned.
 */
async function channelPage(ctx: RequestContext, channelId: string, limit: number, offset: number) {
  const rows = await ctx.em.execute<(Contact & { channelTotal: number })[]>(
    `select ${CONTACT_COLUMNS}, n.total as "channelTotal"
       from (select coalesce(max(total), 0) as total from channel_contact_counts where channel_id = ?) n
       left join lateral (${pageOf('c.channel_id = ? and ? < n.total')}) c on true
       ${WITH_LABELS}
      order by c.created_at desc, c.id desc`,
    [channelId, channelId, offset, limit, offset, channelId],
  );
  // There is always one row, carrying the total; an empty page leaves its contact columns null.
  const data = rows[0]!.id === null ? [] : rows.map(({ channelTotal: _total, ...contact }) => contact);
  return { data, total: rows[0]!.channelTotal };
}

async function searchPage(ctx: RequestContext, channelId: string, search: SqlCondition, limit: number, offset: number) {
  return ctx.em.execute<Contact[]>(
    `select ${CONTACT_COLUMNS}
       from (${pageOf(`c.channel_id = ? and ${search.sql}`)}) c
       ${WITH_LABELS}
      order by c.created_at desc, c.id desc`,
    [channelId, ...search.params, limit, offset, channelId],
  );
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
    const { data, total } = await channelPage(ctx, channelId, limit, offset);
    return { data, pagination: pagination(page, limit, total) };
  }
  const search = contactSearch(query.search);
  const data = await searchPage(ctx, channelId, search, limit, offset);
  // A short page that is not past the end already tells the exact total: most searches need no count at all.
  // Otherwise count; a full page proves at least offset + limit matches, which a capped count may not reach.
  const seen = data.length > 0 ? offset + data.length : 0;
  const endSeen = data.length < limit && (data.length > 0 || offset === 0);
  const total = endSeen ? seen : Math.max(await searchTotal(ctx, channelId, search), seen);
  return { data, pagination: pagination(page, limit, total) };
}
