import type { Contact, ContactGroup, ContactSection } from '../../../contract/contacts';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of contacts. */
export default defineModule({
  resources: [
    { name: 'contacts', recordRepresentation: (r: Contact) => r.name },
    { name: 'contacts_groups', recordRepresentation: (r: ContactGroup) => r.name },
    { name: 'contacts_section', recordRepresentation: (r: ContactSection) => `${r.name} (${r.complex})` },
  ],
  routes: [
    page('/Contacts', 'contacts', () => import('./ContactsPage')),
    page('/Contacts/create', 'contacts', () => import('./ContactEdit')),
    page('/Contacts/:id', 'contacts', () => import('./ContactEdit')),
  ],
  menu: [{ label: 'app.menu.contacts', path: '/contacts', area: 'contacts', icon: 'contacts', order: 60 }],
  legacy: [{ path: 'Complex-contacts', label: 'app.legacy.pages.complex_contacts', target: '/Contacts' }],
});
