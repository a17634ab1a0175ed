import { CONTACTS_SEARCH_COUNT_CAP, type Contact } from '@switchboard/contract';
import type { CallerContext, ServiceContext } from '../../kit/context.js';
import { offsetOf, paginationOf } from '../../kit/pagination.js';
import {
  COUNTED,
  nameMatches,
  nameMatchesRow,
  phoneDigits,
  phoneMatches,
  type SqlPart,
} from './contact-search.queries.js';
import { NAME_PREFIX_LENGTH } from './contact.sql.js';
import { isoTimestamp } from '../../kit/iso-timestamp.js';
import { executePrepared } from '../../kit/prepared-statement.js';

/*
 * Hand-written SQL on purpose: contacts/list is the hot path (a channel can hold a million contacts). Each listing
 * or search is one statement (a term too broad to sort takes a second): the page is cut in index order
 * first, labels are aggregated per row, and the total comes from the trigger-kept counter or a count capped at
 * CONTACTS_SEARCH_COUNT_CAP. The statements are prepared once per connection (executePrepared). Figures:
 * docs/benchmarks.md; `tests/bench/sql-bench.ts` measures the SQL alone.
 */

export interface ContactQuery {
  page: number;
  limit: number;
  search?: string;
}

/** The columns of contacts `c` that contacts/list shows. */
const CONTACT_ROW = 'c.id, c.name, c.phone, c.email, c.status, c.custom_fields, c.created_at, c.updated_at';

/** A page of contacts `c`, cut in index order before anything else is computed for its rows. */
const pageOf = (where: string) =>
  `select ${CONTACT_ROW}
     from contacts c where ${where}
    order by c.created_at desc, c.id desc
    limit ? offset ?`;

/**
 * The contact fields of contacts `c`, with its labels as a JSON array (one statement, no N+1). The labels are a
 * subquery in the select list, which measured cheaper than the same subquery joined laterally (docs/benchmarks.md);
 * its one parameter is the channel, and it comes first in the statement.
 */
const CONTACT_COLUMNS = `c.id, c.name, c.phone, c.email, c.status, c.custom_fields as "customFields",
  ${isoTimestamp('c.created_at', 'createdAt')}, ${isoTimestamp('c.updated_at', 'updatedAt')},
  coalesce((select json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color) order by l.sort_order,
    l.name)
              from contact_labels cl join labels l on l.id = cl.label_id
             where cl.contact_id = c.id and l.channel_id = ?), '[]'::json) as labels`;

/**
 * Without a search: the page and the channel's exact total (the trigger-maintained counter, see the
 * contact_counts migration) in one statement. A page at or past the end is not even scanned.
 */
async function channelPage(ctx: CallerContext, channelId: string, limit: number, offset: number) {
  const rows = await executePrepared<Contact & { channelTotal: number }>(
    ctx.em,
    `select ${CONTACT_COLUMNS}, n.total as "channelTotal"
       from (select coalesce(max(total), 0) as total from channel_contact_counts where channel_id = ?) n
       left join lateral (${pageOf('c.channel_id = ? and ? < n.total')}) c on true
      order by c.created_at desc, c.id desc`,
    [channelId, channelId, channelId, offset, limit, offset],
  );
  // There is always one row, carrying the total; an empty page leaves its contact columns null.
  const data = rows[0]!.id === null ? [] : rows.map(({ channelTotal: _total, ...contact }) => contact);
  return { data, total: rows[0]!.channelTotal };
}

interface SearchStatement {
  /** A WITH clause defining `n` (total, complete): how many match, counted up to one past the cap. */
  counted: SqlPart;
  /** The page's contact ids, newest first. */
  page: SqlPart;
}

/**
 * Runs a search statement: the page's contacts are fetched by id, in the channel, with their labels; one row
 * carries the total when the page is empty.
 */
async function searchPage(ctx: CallerContext, channelId: string, { counted, page }: SearchStatement) {
  const rows = await executePrepared<Contact & { matchTotal: number; complete: boolean }>(
    ctx.em,
    `${counted.sql}
     select ${CONTACT_COLUMNS}, n.total as "matchTotal", n.complete
       from n left join lateral (
         select ${CONTACT_ROW} from (${page.sql}) page
           join contacts c on c.id = page.contact_id and c.channel_id = ?) c on true
      order by c.created_at desc, c.id desc`,
    [...counted.params, channelId, ...page.params, channelId],
  );
  const [first] = rows;
  const data = first!.id === null ? [] : rows.map(({ matchTotal: _total, complete: _complete, ...contact }) => contact);
  return { data, total: first!.matchTotal, complete: first!.complete };
}

/**
 * A name search. A short term reads its key in listing order: the count (stopping one past the cap) and the page
 * both off the index, index entries only. A longer term reads at most cap + 1 entries of its word range and, when
 * that is all of them, sorts them for the page; otherwise it is incomplete and paged by broadNamePage.
 */
function nameSearch(channelId: string, term: string, limit: number, offset: number): SearchStatement {
  const names = nameMatches(channelId, term);
  if (names.ordered)
    return {
      counted: {
        sql: `with n as (select count(*)::int as total, true as complete from (${names.sql} limit ?) m)`,
        params: [...names.params, COUNTED],
      },
      page: { sql: `${names.sql} limit ? offset ?`, params: [...names.params, limit, offset] },
    };
  return {
    counted: {
      sql: `with matches as materialized (${names.sql} limit ?),
         n as (select count(*)::int as total, count(*) < ? as complete from matches)`,
      params: [...names.params, COUNTED, COUNTED],
    },
    page: {
      sql: 'select contact_id from matches where n.complete order by created_at desc, contact_id desc limit ? offset ?',
      params: [limit, offset],
    },
  };
}

/**
 * A phone fragment, matched in phones and names: at most cap + 1 phone matches, and the name matches (the newest
 * ones when they come in listing order, else at most cap + 1), merged. Unless either was cut off (a very broad
 * term, such as two digits in a big channel), they hold every match, so the page is sorted from them.
 */
function phoneSearch(channelId: string, term: string, digits: string, limit: number, offset: number): SearchStatement {
  const phones = phoneMatches(channelId, digits);
  const names = nameMatches(channelId, term);
  const namesRead = names.ordered ? Math.max(COUNTED, offset + limit) : COUNTED;
  return {
    counted: {
      sql: `with phone as materialized (${phones.sql} limit ?),
         named as materialized (${names.sql} limit ?),
         matches as materialized (select contact_id, created_at from phone union select contact_id, created_at from
           named),
         n as (select count(*)::int as total, (select count(*) from phone) < ?
                 ${names.ordered ? '' : 'and (select count(*) from named) < ?'} as complete from matches)`,
      params: [...phones.params, COUNTED, ...names.params, namesRead, COUNTED, ...(names.ordered ? [] : [COUNTED])],
    },
    page: {
      sql: 'select contact_id from matches where n.complete order by created_at desc, contact_id desc limit ? offset ?',
      params: [limit, offset],
    },
  };
}

/**
 * The page of a term too broad to sort its matches, read in listing order and checked row by row (these are dense
 * terms, one contact in a thousand at the least): a phone fragment walks the listing index, each contact checked by
 * its phone and its name; a name term walks the entries of its first NAME_PREFIX_LENGTH characters' prefix key,
 * each rechecked on its contact's name. Planned for its values (not prepared): a generic plan cannot tell that
 * LIMIT 50 stops such a walk early, and sorts every candidate of a big channel instead (figures:
 * docs/benchmarks.md).
 */
async function broadPage(
  ctx: CallerContext,
  channelId: string,
  term: string,
  digits: string | undefined,
  limit: number,
  offset: number,
) {
  const name = nameMatchesRow(term, digits);
  const page = digits
    ? {
        sql: pageOf(`c.channel_id = ? and (strpos(c.phone, ?) > 0 or ${name.sql})`),
        params: [channelId, digits, ...name.params, limit, offset],
      }
    : {
        sql: `select ${CONTACT_ROW} from contact_name_prefixes k join contacts c on c.id = k.contact_id
               where k.channel_id = ? and k.prefix = left(contact_search_text(?), ${NAME_PREFIX_LENGTH}) collate "C"
                 and ${name.sql}
               order by k.created_at desc, k.contact_id desc
               limit ? offset ?`,
        params: [channelId, term, ...name.params, limit, offset],
      };
  return ctx.em.execute<Contact[]>(
    `select ${CONTACT_COLUMNS} from (${page.sql}) c order by c.created_at desc, c.id desc`,
    [channelId, ...page.params],
  );
}

export async function listContacts(ctx: CallerContext, channelId: string, query: ContactQuery) {
  const { page, limit } = query;
  const offset = offsetOf(query);
  if (!query.search) {
    const { data, total } = await channelPage(ctx, channelId, limit, offset);
    return { data, pagination: paginationOf(page, limit, total) };
  }
  const term = query.search;
  const digits = phoneDigits(term);
  const found = await searchPage(
    ctx,
    channelId,
    digits ? phoneSearch(channelId, term, digits, limit, offset) : nameSearch(channelId, term, limit, offset),
  );
  const data = found.complete ? found.data : await broadPage(ctx, channelId, term, digits, limit, offset);
  // Past the cap, `total` is the cap, or what the requested page proves exists if that is higher.
  const total =
    found.complete && found.total <= CONTACTS_SEARCH_COUNT_CAP
      ? found.total
      : Math.max(CONTACTS_SEARCH_COUNT_CAP, data.length > 0 ? offset + data.length : 0);
  return { data, pagination: paginationOf(page, limit, total) };
}

/** One contact of the channel, by id or by phone, exactly as contacts/list shows it; undefined when there is none. */
export async function readContact(
  { em }: ServiceContext,
  channelId: string,
  by: 'id' | 'phone',
  value: string,
): Promise<Contact | undefined> {
  const [contact] = await em.execute<Contact[]>(
    `select ${CONTACT_COLUMNS} from contacts c where c.channel_id = ? and c.${by} = ?`,
    [channelId, channelId, value],
  );
  return contact;
}
