import { useState } from 'react';
import { Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import { BooleanInput, Form, maxLength, required, TextInput, useGetOne, useNotify, useRefresh, useTranslate, type Identifier } from 'react-admin';
import type { DocumentRecord } from '../../../contract/documents';
import { sendWithProgress } from '../../components/content/media';
import { FormDialog } from '../../components/FormDialog';
import { KEEP_TYPED_VALUES } from '../../components/forms';
import { toFormData } from '../../dataProvider';
import { toFieldErrors } from '../../dataProvider/http';
import { DocumentFileInput } from './DocumentFileInput';
import { DocumentScopeInputs } from './DocumentScopeInputs';

interface Values {
  name: string;
  file: File | null;
  complexIds: number[];
  houseIds: number[];
  apartmentIds: number[];
  is_public: boolean;
}

/** `houseIds.0` → `houseIds`: the form shows one message per field. */
const byField = (errors: Record<string, string>) =>
  Object.entries(errors).reduce<Record<string, string>>(
    (out, [k, v]) => ({ ...out, [k.split('.')[0]]: out[k.split('.')[0]] ? `${out[k.split('.')[0]]} ${v}` : v }),
    {},
  );

function DocumentForm({ record, onClose }: { record?: DocumentRecord; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [progress, setProgress] = useState<number | null>(null);

  const submit = async (values: Record<string, unknown>) => {
    const v = values as unknown as Values;
    const form = toFormData({
      name: v.name,
      file: v.file,
      complexIds: v.complexIds ?? [],
      houseIds: v.houseIds ?? [],
      apartmentIds: v.apartmentIds ?? [],
      is_public: Boolean(v.is_public),
    });
    setProgress(0);
    try {
      await sendWithProgress(record ? 'PUT' : 'POST', record ? `/documents/${record.id}` : '/documents', form, setProgress);
      notify(record ? 'resources.documents.notifications.updated' : 'resources.documents.notifications.created', { type: 'success' });
      refresh();
      onClose();
      return undefined;
    } catch (err) {
      const { status, body } = err as { status: number; body?: { message?: string; errors?: unknown } };
      setProgress(null);
      if (status === 422 && body?.errors) return byField(toFieldErrors(body.errors));
      notify(body?.message ?? (status === 0 ? 'app.errors.network' : 'app.errors.server'), { type: 'error' });
      return undefined;
    }
  };

  const defaults: Partial<Values> = record
    ? {
        name: record.name,
        file: null,
        complexIds: record.complexIds,
        houseIds: record.houseIds,
        apartmentIds: record.apartmentIds,
        is_public: record.is_public,
      }
    : { name: '', file: null, complexIds: [], houseIds: [], apartmentIds: [], is_public: true };
  const busy = progress !== null;
  return (
    <Form defaultValues={defaults} onSubmit={submit} resetOptions={KEEP_TYPED_VALUES}>
      <TextInput source="name" label="resources.documents.fields.name" validate={[required(), maxLength(200)]} fullWidth />
      <DocumentFileInput current={record ? { name: record.file_name, size: record.size } : undefined} />
      <DocumentScopeInputs record={record} />
      <BooleanInput source="is_public" label="resources.documents.fields.is_public" helperText="resources.documents.public_hint" />
      {busy && (
        <Box sx={{ my: 1 }} data-testid="upload-progress">
          <LinearProgress variant="determinate" value={progress} aria-label={translate('resources.documents.uploading')} />
          <Typography variant="caption" color="text.secondary">
            {translate('resources.documents.uploading')} {progress}%
          </Typography>
        </Box>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 2 }}>
        <Button onClick={onClose} disabled={busy}>
          {translate('app.actions.cancel')}
        </Button>
        <Button type="submit" variant="contained" startIcon={<SaveOutlined />} disabled={busy}>
          {translate('app.actions.save')}
        </Button>
      </Stack>
    </Form>
  );
}

function EditLoader({ id, onClose }: { id: Identifier; onClose: () => void }) {
  const { data } = useGetOne<DocumentRecord>('documents', { id: Number(id) }, { retry: false });
  return data ? <DocumentForm record={data} onClose={onClose} /> : <LinearProgress />;
}

/** Upload a new document, or change one (its file optionally), with upload progress. */
export function DocumentDialog({ target, onClose }: { target: Identifier | 'create' | null; onClose: () => void }) {
  const translate = useTranslate();
  return (
    <FormDialog
      open={target !== null}
      onClose={onClose}
      title={translate(target === 'create' ? 'resources.documents.create_title' : 'resources.documents.edit_title')}
      size="large"
    >
      {target === 'create' && <DocumentForm onClose={onClose} />}
      {target !== null && target !== 'create' && <EditLoader id={target} onClose={onClose} />}
    </FormDialog>
  );
}
