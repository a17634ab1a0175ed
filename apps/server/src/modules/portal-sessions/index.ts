import { defineModule } from '../../kit/module.js';
import { PortalSession } from './portal-session.entity.js';

/**
 * The Developer Portal's sign-in sessions: connect-pg-simple writes the table, the ORM only knows it (so the
 * migrations and their check cover it). A module like any other, so the ORM's entity list is the module list's.
 */
export const portalSessionsModule = defineModule({ name: 'portal-sessions', entities: [PortalSession] });
