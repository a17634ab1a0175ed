import { defineEntity, p } from '@mikro-orm/core';

/*
 * The search keys of contacts/list, kept by triggers on `contacts` (see the contact_search_keys migration) and
 * never written by the application. Each row places one contact under one key in listing order: the primary key
 * (channel, key, created_at, contact_id), read backwards, is the newest-first order of contacts/list, so the
 * contacts under a key come off the index already paged. `collate "C"`: byte order, which the phone range
 * (`suffix >= '27' and suffix < '27:'`) relies on and which compares fastest. No foreign keys: the triggers
 * delete a contact's keys with it, and an index on contact_id to serve a cascade would double the size.
 */

/** Every prefix (up to 24 characters) of every word-start suffix of a contact's name, lower-cased. */
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

/** Every suffix of a contact's phone: the contacts whose phone contains `27` are those with a suffix starting `27`. */
const ContactPhoneSuffixSchema = defineEntity({
  name: 'ContactPhoneSuffix',
  tableName: 'contact_phone_suffixes',
  properties: {
    channelId: p.uuid().primary(),
    suffix: p.text().collation('C').primary(),
    createdAt: p.datetime().primary(),
    contactId: p.uuid().primary(),
  },
});
export class ContactPhoneSuffix extends ContactPhoneSuffixSchema.class {}
ContactPhoneSuffixSchema.setClass(ContactPhoneSuffix);
