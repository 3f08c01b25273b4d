import { useParams } from 'react-router-dom';
import { Stack } from '@mui/material';
import { maxLength, required, TextInput } from 'react-admin';
import type { Announcement } from '../../../contract/announcements';
import { AudienceInputs } from '../../components/content/AudienceInputs';
import { ContentFormPage } from '../../components/content/ContentFormPage';
import { useComplexSelection } from '../../layout/complexSelection';
import { UkDateTimeInput } from '../../components/inputs/DateInputs';

/** /Announcements/create, and /Announcements/{id} — one announcement, open for editing. */
export default function AnnouncementEdit() {
  const { id } = useParams();
  const { complexId } = useComplexSelection();
  return (
    <ContentFormPage<Announcement>
      resource="announcements"
      id={id}
      titles={{ create: 'resources.announcements.create_title', edit: 'resources.announcements.edit_title' }}
      notifications={{ created: 'resources.announcements.notifications.created', updated: 'resources.announcements.notifications.updated' }}
      backTo="/Announcements"
      afterSave={() => '/Announcements'}
      createDefaults={{ complex_ids: complexId ? [complexId] : [], house_ids: [], valid_from: new Date().toISOString(), valid_until: null }}
    >
      <TextInput source="title" validate={[required(), maxLength(200)]} fullWidth />
      <TextInput source="body" validate={[required(), maxLength(5000)]} multiline minRows={5} fullWidth />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ width: '100%' }}>
        <UkDateTimeInput source="valid_from" validate={required()} sx={{ flex: 1 }} />
        <UkDateTimeInput source="valid_until" helperText="resources.announcements.until_hint" sx={{ flex: 1 }} />
      </Stack>
      <AudienceInputs />
    </ContentFormPage>
  );
}
