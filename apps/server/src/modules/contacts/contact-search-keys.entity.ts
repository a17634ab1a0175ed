import { defineEntity, p } from '@mikro-orm/core';

/*
 * The name search keys of contacts/list, kept by triggers on `contacts` (see the contact_search_words migration)
 * and never written by the application. Each row places one contact under one key in listing order: the primary
 * key (channel, key, created_at, contact_id), read backwards, is the newest-first order of contacts/list, so the
 * contacts under one key come off the index already paged. `collate "C"`: byte order, which the word ranges
 * (`word >= 'mich' and word < 'mici'`) rely on and which compares fastest. No foreign keys: the triggers delete a
 * contact's keys with it, and an index on contact_id to serve a cascade would double the size. Phones have no key
 * table: a trigram index on contacts.phone (contact.entity.ts) finds the digits.
 */

/** The prefixes (up to 2 characters) of every word-start suffix of a contact's name, lower-cased: the broad terms. */
const ContactNamePrefixSchema = defineEntity({
  name: 'ContactNamePrefix',
  tableName: 'contact_name_prefixes',
  properties: {
    channelId: p.uuid().primary(),
    prefix: p.text().collation('C').primary(),
    createdAt: p.datetime().primary(),
    contactId: p.uuid().primary(),
  },
});
export class ContactNamePrefix extends ContactNamePrefixSchema.class {}
ContactNamePrefixSchema.setClass(ContactNamePrefix);

/**
 * One row per word start of a contact's name: the word-start suffix (up to 24 characters), and how many leading
 * characters it shares with an earlier word start of the same name (a term no longer than that finds the contact
 * by the earlier one already).
 */
const ContactNameWordSchema = defineEntity({
  name: 'ContactNameWord',
  tableName: 'contact_name_words',
  properties: {
    channelId: p.uuid().primary(),
    word: p.text().collation('C').primary(),
    createdAt: p.datetime().primary(),
    contactId: p.uuid().primary(),
    shared: p.smallint().primary(),
  },
});
export class ContactNameWord extends ContactNameWordSchema.class {}
ContactNameWordSchema.setClass(ContactNameWord);
