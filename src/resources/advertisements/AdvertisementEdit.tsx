import { useParams } from 'react-router-dom';
import { AutocompleteInput, maxLength, ReferenceInput, required, TextInput } from 'react-admin';
import type { Advertisement } from '../../../contract/advertisements';
import { ContentFormPage } from '../../components/content/ContentFormPage';
import { FileImageInput } from '../../components/content/FileImageInput';

/** /Advertisements/create, and /Advertisements/{id} — one advertisement, open for editing. */
export default function AdvertisementEdit() {
  const { id } = useParams();
  return (
    <ContentFormPage<Advertisement>
      resource="advertisements"
      id={id}
      titles={{ create: 'resources.advertisements.create_title', edit: 'resources.advertisements.edit_title' }}
      notifications={{ created: 'resources.advertisements.notifications.created', updated: 'resources.advertisements.notifications.updated' }}
      backTo="/Advertisements"
      afterSave={() => '/Advertisements'}
      createDefaults={{ image: null }}
    >
      <TextInput source="name" validate={[required(), maxLength(200)]} fullWidth />
      <TextInput source="desc" validate={maxLength(5000)} multiline minRows={4} fullWidth />
      <ReferenceInput source="house_id" reference="houses" perPage={200} sort={{ field: 'address', order: 'ASC' }}>
        <AutocompleteInput optionText="address" filterToQuery={(q) => ({ q })} validate={required()} fullWidth />
      </ReferenceInput>
      <FileImageInput source="image" removeSource="remove_image" label="resources.advertisements.fields.image" />
    </ContentFormPage>
  );
}
