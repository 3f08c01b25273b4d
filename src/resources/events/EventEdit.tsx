import { useParams } from 'react-router-dom';
import { Stack } from '@mui/material';
import { maxLength, required, TextInput } from 'react-admin';
import type { CommunityEvent } from '../../../contract/events';
import { AudienceInputs } from '../../components/content/AudienceInputs';
import { ContentFormPage } from '../../components/content/ContentFormPage';
import { ImageInput } from '../../components/content/ImageInput';
import { useComplexSelection } from '../../layout/complexSelection';
import { UkDateTimeInput } from '../../components/inputs/DateInputs';
import { eventPath } from './EventList';

/** /Events/create, and /Events/edit/{id} — without an id it is the create form too (docs/architecture.md, "Routes"). */
export default function EventEdit() {
  const { id } = useParams();
  const { complexId } = useComplexSelection();
  return (
    <ContentFormPage<CommunityEvent>
      resource="events"
      id={id}
      titles={{ create: 'resources.events.create_title', edit: 'resources.events.edit_title' }}
      notifications={{ created: 'resources.events.notifications.created', updated: 'resources.events.notifications.updated' }}
      backTo="/Events"
      afterSave={(r) => eventPath(r.id)}
      createDefaults={{ complex_ids: complexId ? [complexId] : [], house_ids: [], image_id: null, ends_at: null, description: '' }}
    >
      <TextInput source="title" validate={[required(), maxLength(200)]} fullWidth />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ width: '100%' }}>
        <UkDateTimeInput source="starts_at" validate={required()} sx={{ flex: 1 }} />
        <UkDateTimeInput source="ends_at" sx={{ flex: 1 }} />
      </Stack>
      <TextInput source="place" validate={[required(), maxLength(200)]} fullWidth />
      <TextInput source="description" validate={maxLength(5000)} multiline minRows={4} fullWidth />
      <ImageInput source="image_id" urlSource="image_url" label="resources.events.fields.image_id" />
      <AudienceInputs />
    </ContentFormPage>
  );
}
