import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { createTenant, type Tenant } from '../helpers/fixtures.js';
import { test as base } from '../helpers/test.js';

/**
 * contacts/list `search`, as docs/api.md states it: a term matches a name when, case-insensitively and with runs of
 * whitespace folded, it is the beginning of a word of the name (and may run on past that word); it matches a phone
 * when its digits (+, spaces, dashes and parentheses stripped) appear anywhere in it. Exactly what matches and what
 * does not, through the real server; what the search keys do on every write path is in contacts-search-keys.test.ts.
 */
const BOOK: [name: string, phone: string][] = [
  ['Michael Smith', '15550100001'],
  ['Anna Michalska', '48221002002'],
  ['Dominic Mitchell', '15550100004'],
  ['Hans Müller', '4930100003'],
  ['Jean-Luc Picard', '33140100005'],
  ["Velva D'Orazio", '39066100006'],
  ['John   Smith', '15550100007'],
  ['Élodie Durand', '33140100008'],
  ['Alexandra Konstantinopoulou-Smith', '30210100009'],
  ['Alexandra Konstantinopoulou-Brown', '30210100010'],
  ['Room 777', '15550123456'],
  ['Anna Annabel', '15550100012'],
];

const test = base
  .extend('book', { scope: 'file' }, async ({ server }) => {
    const tenant = await createTenant(server, 'Book');
    // Only the book, listed in its own order (newest first).
    await sql(server.databaseUrl, 'delete from contacts where channel_id = $1', [tenant.mainChannelId]);
    await sql(
      server.databaseUrl,
      `insert into contacts (channel_id, name, phone, created_at)
       select $1, b.name, b.phone, now() - b.ord * interval '1 minute' from unnest($2::text[], $3::text[]) with
         ordinality b(name, phone, ord)`,
      [tenant.mainChannelId, BOOK.map(([name]) => name), BOOK.map(([, phone]) => phone)],
    );
    return tenant;
  })
  .extend(
    'search',
    ({ server, book }) =>
      async (search: string, tenant: Tenant = book) =>
        (await server.client(tenant.memberKey).workspace.contacts.list({ search })).data.map((c) => c.name),
  );

describe('contacts/list search', () => {
  test('matches the start of any word of the name, and may run on past that word', async ({ search }) => {
    expect(await search('mich')).toEqual(['Michael Smith', 'Anna Michalska']);
    expect(await search('smith')).toEqual(['Michael Smith', 'John   Smith', 'Alexandra Konstantinopoulou-Smith']);
    expect(await search('Michael Sm')).toEqual(['Michael Smith']);
    // Runs of whitespace count as one space, in the name and in the term.
    expect(await search('john sm')).toEqual(['John   Smith']);
    expect(await search('John     Smith')).toEqual(['John   Smith']);
    // Not from the middle of a word, and words in their order.
    for (const term of ['ller', 'hael', 'ichael', 'itch', 'smith michael', 'Smith John'])
      expect(await search(term)).toEqual([]);
  });

  test('starts a word after punctuation too', async ({ search }) => {
    expect(await search('luc')).toEqual(['Jean-Luc Picard']);
    expect(await search('jean-luc p')).toEqual(['Jean-Luc Picard']);
    expect(await search('orazio')).toEqual(["Velva D'Orazio"]);
    expect(await search("d'or")).toEqual(["Velva D'Orazio"]);
    expect(await search('dor')).toEqual([]);
    expect(await search('brown')).toEqual(['Alexandra Konstantinopoulou-Brown']);
  });

  test('ignores case as PostgreSQL lower() does in this database, and keeps accents', async ({ server, search }) => {
    expect(await search('MICHAEL')).toEqual(['Michael Smith']);
    expect(await search('mül')).toEqual(['Hans Müller']);
    expect(await search('Élodie')).toEqual(['Élodie Durand']);
    expect(await search('elodie')).toEqual([]);
    expect(await search('muller')).toEqual([]);
    const [{ folds }] = (await sql<{ folds: boolean }>(
      server.databaseUrl,
      "select lower('ÉLODIE MÜLLER') = 'élodie müller' as folds",
    )) as [{ folds: boolean }];
    expect(await search('HANS MÜLLER')).toEqual(folds ? ['Hans Müller'] : []);
    expect(await search('ÉLODIE')).toEqual(folds ? ['Élodie Durand'] : []);
  });

  test('finds the digits of a phone fragment anywhere in the phone, typed with +, spaces, dashes, parentheses', async ({
    search,
  }) => {
    expect(await search('0003')).toEqual(['Hans Müller']);
    expect(await search('+49 30 100')).toEqual(['Hans Müller']);
    expect(await search('(48) 22-100')).toEqual(['Anna Michalska']);
    expect(await search('5550100')).toEqual(['Michael Smith', 'Dominic Mitchell', 'John   Smith', 'Anna Annabel']);
    expect(await search('123456')).toEqual(['Room 777']);
    expect(await search('99999')).toEqual([]);
  });

  test('tries a term of digits on names as well, and lists each contact once', async ({ search }) => {
    // Room 777 by its name (its phone is 15550123456); the others by their phones.
    expect(await search('777')).toEqual(['Room 777']);
    expect(await search('0100')).toEqual([
      'Michael Smith',
      'Dominic Mitchell',
      'Hans Müller',
      'Jean-Luc Picard',
      'John   Smith',
      'Élodie Durand',
      'Alexandra Konstantinopoulou-Smith',
      'Alexandra Konstantinopoulou-Brown',
      'Anna Annabel',
    ]);
    // "ann" starts two words of one name: still one result.
    expect(await search('ann')).toEqual(['Anna Michalska', 'Anna Annabel']);
  });

  test('one character is a term like any other', async ({ search }) => {
    expect(await search('j')).toEqual(['Jean-Luc Picard', 'John   Smith']);
    expect(await search('9')).toEqual(['Hans Müller', "Velva D'Orazio", 'Alexandra Konstantinopoulou-Smith']);
    // John by his phone (15550100007), Room 777 by its name.
    expect(await search('7')).toEqual(['John   Smith', 'Room 777']);
  });

  test('matches a term longer than the stored name prefixes (24 characters) exactly, by rechecking the name', async ({
    search,
  }) => {
    // Both names share their first 24 characters, "alexandra konstantinopou".
    expect(await search('alexandra konstantinopoulou-s')).toEqual(['Alexandra Konstantinopoulou-Smith']);
    expect(await search('Alexandra Konstantinopoulou')).toEqual([
      'Alexandra Konstantinopoulou-Smith',
      'Alexandra Konstantinopoulou-Brown',
    ]);
    expect(await search('alexandra konstantinopoulou-smithers')).toEqual([]);
    expect(await search('x'.repeat(100))).toEqual([]);
  });

  test('never shows another channel’s contacts', async ({ server, book, search }) => {
    const other = await createTenant(server, 'Other');
    await sql(
      server.databaseUrl,
      `insert into contacts (channel_id, name, phone) values ($1, 'Michael Smith', '15550100001')`,
      [other.mainChannelId],
    );
    const theirs = await server.client(other.memberKey).workspace.contacts.list({ search: 'michael' });
    expect(theirs.data.map((c) => c.name)).toEqual(['Michael Smith']);
    expect(theirs.pagination.total).toBe(1);
    const ours = await server.client(book.memberKey).workspace.contacts.list({ search: '0100001' });
    expect(ours.data.map((c) => c.id)).not.toContain(theirs.data[0]!.id);
    expect(ours.pagination.total).toBe(1);
    expect(await search('michael', other)).toEqual(['Michael Smith']);
    // The seeded contacts of the other tenant's second channel are not in its main channel either.
    expect(await search('linus', other)).toEqual([]);
  });
});
