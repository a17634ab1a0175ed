import { defineModule } from '../../kit/module.js';
export { GraphClient } from './graph-client.js';
export { ProviderUnauthorizedError } from './graph-errors.js';
export { fetchHeaderSample, type SampleFetchOptions } from './header-sample.js';
export { qualityOf, syncedTemplates, templateStatusOf, type SyncedTemplate } from './meta-templates.js';
export { templateComponents } from './template-components.js';

/**
 * Meta's Graph API as WhatsApp channels speak it, with no state of its own: the client (sends, media, templates,
 * uploads) and its typed errors, the message bodies it posts, Meta's template shapes read and written, and the fetch
 * of a template header's sample. The whatsapp module holds the credentials it is called with.
 */
export const whatsAppGraphModule = defineModule({ name: 'whatsapp-graph', entities: [] });
