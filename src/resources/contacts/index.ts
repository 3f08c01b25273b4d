import type { Contact, ContactGroup, ContactSection } from '../../../contract/contacts';

/** react-admin resource declarations; the screens are mounted by the route table (src/routes.tsx). */
export const contacts = { name: 'contacts', recordRepresentation: (r: Contact) => r.name };
export const contactGroups = { name: 'contacts_groups', recordRepresentation: (r: ContactGroup) => r.name };
export const contactSections = { name: 'contacts_section', recordRepresentation: (r: ContactSection) => `${r.name} (${r.complex})` };
