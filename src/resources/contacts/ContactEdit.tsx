import { useParams } from 'react-router-dom';
import { Stack } from '@mui/material';
import { AutocompleteInput, maxLength, ReferenceInput, required, TextInput } from 'react-admin';
import type { Contact } from '../../../contract/contacts';
import { ContentFormPage } from '../../components/content/ContentFormPage';
import { sectionLabel } from './ContactsTab';

/** /Contacts/create, and /Contacts/{id} — one contact, open for editing. */
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
      <TextInput source="name" validate={[required(), maxLength(200)]} fullWidth />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ width: '100%' }}>
        <TextInput source="phone" helperText="resources.contacts.phone_hint" sx={{ flex: 1 }} />
        <TextInput source="email" type="email" sx={{ flex: 1 }} />
      </Stack>
      <TextInput source="link" helperText="resources.contacts.link_hint" fullWidth />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ width: '100%' }}>
        <ReferenceInput source="section_id" reference="contacts_section" perPage={200} sort={{ field: 'name', order: 'ASC' }}>
          <AutocompleteInput optionText={sectionLabel} validate={required()} sx={{ flex: 1 }} filterToQuery={(q) => ({ q })} />
        </ReferenceInput>
        <ReferenceInput source="group_id" reference="contacts_groups" perPage={200} sort={{ field: 'name', order: 'ASC' }}>
          <AutocompleteInput optionText="name" sx={{ flex: 1 }} filterToQuery={(q) => ({ q })} />
        </ReferenceInput>
      </Stack>
      <TextInput source="description" validate={maxLength(2000)} multiline minRows={2} fullWidth />
    </ContentFormPage>
  );
}
