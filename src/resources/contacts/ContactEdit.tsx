import { useParams } from 'react-router-dom';
import type { Contact } from '../../../contract/contacts';
import { contactEntity } from '../../../contract/contacts';
import { ContentFormPage } from '../../components/content/ContentFormPage';
import { EntityInputs } from '../generic/EntityInputs';

/** /Contacts/create, and /Contacts/{id} — one contact, open for editing: the declaration's inputs on a page. */
export default function ContactEdit() {
  const { id } = useParams();
  return (
    <ContentFormPage<Contact>
      resource="contacts"
      id={id}
      titles={{ create: 'resources.contacts.create_title', edit: 'resources.contacts.edit_title' }}
      notifications={{ created: 'resources.contacts.notifications.created', updated: 'resources.contacts.notifications.updated' }}
      backTo="/Contacts"
      afterSave={() => '/Contacts'}
      createDefaults={{ group_id: null, description: '' }}
    >
      <EntityInputs entity={contactEntity} />
    </ContentFormPage>
  );
}
