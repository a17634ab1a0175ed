import { defineEntity, p } from '@mikro-orm/core';

/**
 * Developer Portal sessions, written and read by connect-pg-simple (never through the ORM). Declared here so the
 * schema diff that generates migrations knows the table and does not propose dropping it.
 */
const PortalSessionSchema = defineEntity({
  name: 'PortalSession',
  tableName: 'portal_sessions',
  properties: {
    sid: p.string().length(255).primary(),
    sess: p.json<Record<string, unknown>>(),
    expire: p.datetime().index('portal_sessions_expire_index'),
  },
});
export class PortalSession extends PortalSessionSchema.class {}
PortalSessionSchema.setClass(PortalSession);
