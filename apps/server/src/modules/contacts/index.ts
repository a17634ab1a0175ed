import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { ContactCount } from './contact-count.entity.js';
import { contactsDemo } from './contact-demo.js';
import { ContactLabel } from './contact-label.entity.js';
import { ContactNamePrefix, ContactNameWord } from './contact-search-keys.entity.js';
import { Contact } from './contact.entity.js';
import { contactsRouter } from './contact.router.js';
import { contactsSeed } from './contact.seed.js';

export { findOrCreateContactByPhone } from './contact-by-phone.js';
export { ContactLabel } from './contact-label.entity.js';
export { Contact } from './contact.entity.js';
export { changeContactStatus } from './contact-status.js';

export const contactsModule = defineModule({
  name: 'contacts',
  entities: [Contact, ContactLabel, ContactCount, ContactNamePrefix, ContactNameWord],
  routes: [routes(contract.workspace.contacts, contactsRouter)],
  seed: [contactsSeed],
  demo: { contacts: contactsDemo },
  // contacts/list runs prepared statements (executePrepared says why; MikroORM sends simple queries with inlined
  // literals, never planned as prepared statements): planned once per connection for any parameters, and without
  // JIT, which pays off only for long analytical queries, which this API does not run.
  sessionSettings: { plan_cache_mode: 'force_generic_plan', jit: 'off' },
});
