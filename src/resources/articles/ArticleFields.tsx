import { Stack } from '@mui/material';
import { BooleanInput, maxLength, required, SelectInput, TextInput } from 'react-admin';
import { AudienceInputs } from '../../components/content/AudienceInputs';
import { ImageInput } from '../../components/content/ImageInput';
import { UkDateTimeInput } from '../../components/inputs/DateInputs';
import { RichTextField } from '../../components/content/RichTextField';

/** Title, rich text, cover, audience, status with publish time, emergency flag. */
export function ArticleFields() {
  return (
    <>
      <TextInput source="title" validate={[required(), maxLength(200)]} fullWidth />
      <RichTextField source="body" required />
      <ImageInput source="image_id" urlSource="image_url" label="resources.articles.fields.image_id" />
      <AudienceInputs />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ width: '100%' }}>
        <SelectInput
          source="status"
          validate={required()}
          choices={[
            { id: 'draft', name: 'resources.articles.statuses.draft' },
            { id: 'published', name: 'resources.articles.statuses.published' },
          ]}
          sx={{ flex: 1 }}
        />
        <UkDateTimeInput source="publish_at" helperText="resources.articles.publish_hint" sx={{ flex: 1 }} />
      </Stack>
      <BooleanInput source="is_emergency" helperText="resources.articles.emergency_hint" />
    </>
  );
}
