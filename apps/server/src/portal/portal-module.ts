import { defineModule } from '../kit/module.js';
import { PortalSession } from './portal-session.entity.js';

/** The portal's part of the schema: its session table (connect-pg-simple writes it; the ORM only knows it). */
export const portalModule = defineModule({ name: 'portal', entities: [PortalSession] });
