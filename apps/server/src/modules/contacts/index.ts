import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { ContactCount } from './contact-count.entity.js';
import { contactsDemo } from './contact.demo.js';
import { ContactLabel } from './contact-label.entity.js';
import { ContactNamePrefix, ContactPhoneSuffix } from './contact-search-keys.entity.js';
import { Contact } from './contact.entity.js';
import { contactsRouter } from './contact.router.js';
import { contactsSeed } from './contact.seed.js';

export const contactsModule = defineModule({
  name: 'contacts',
  entities: [Contact, ContactLabel, ContactCount, ContactNamePrefix, ContactPhoneSuffix],
  routes: [routes(contract.workspace.contacts, contactsRouter)],
  seed: [contactsSeed],
  demo: { contacts: contactsDemo },
});
