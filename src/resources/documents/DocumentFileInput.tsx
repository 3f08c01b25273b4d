import { useRef, type ChangeEvent } from 'react';
import { Button, FormHelperText, Stack, Typography } from '@mui/material';
import AttachFileOutlined from '@mui/icons-material/AttachFileOutlined';
import { useInput, useTranslate } from 'react-admin';
import { formatFileSize } from './fileSize';

export const DOCUMENT_MAX_BYTES = 20 * 1024 * 1024;
const ACCEPT = '.pdf,.doc,.docx,.xls,.xlsx,.odt,.ods,.jpg,.jpeg,.png';

/** The document's file: required for a new document, optional (a replacement) when editing. */
export function DocumentFileInput({ current }: { current?: { name: string; size: number } }) {
  const translate = useTranslate();
  const input = useRef<HTMLInputElement>(null);
  const { field, fieldState } = useInput({
    source: 'file',
    defaultValue: null,
    validate: (v: unknown) => {
      if (!v) return current ? undefined : 'resources.documents.errors.file_required';
      if (v instanceof File && v.size > DOCUMENT_MAX_BYTES) return 'resources.documents.errors.file_too_large';
      return undefined;
    },
  });
  const file = field.value instanceof File ? field.value : null;
  const onPick = (e: ChangeEvent<HTMLInputElement>) => {
    const picked = e.target.files?.[0];
    e.target.value = '';
    if (picked) field.onChange(picked);
  };
  const shown = file ?? current;
  return (
    <Stack spacing={0.5} sx={{ mb: 2, width: '100%' }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Button variant="outlined" startIcon={<AttachFileOutlined />} onClick={() => input.current?.click()}>
          {translate(shown ? 'resources.documents.replace_file' : 'resources.documents.choose_file')}
        </Button>
        <Typography variant="body2" data-testid="document-file-name" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
          {shown ? `${shown.name} (${formatFileSize(shown.size)})` : translate('resources.documents.no_file')}
        </Typography>
      </Stack>
      <Typography variant="caption" color="text.secondary">
        {translate('resources.documents.file_hint')}
      </Typography>
      {fieldState.error?.message && <FormHelperText error>{translate(fieldState.error.message, { _: fieldState.error.message })}</FormHelperText>}
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        hidden
        onChange={onPick}
        data-testid="document-file"
        aria-label={translate('resources.documents.fields.file')}
      />
    </Stack>
  );
}
