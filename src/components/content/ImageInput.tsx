import { useRef, useState, type ChangeEvent } from 'react';
import { Box, Button, FormHelperText, LinearProgress, Stack, Typography } from '@mui/material';
import UploadOutlined from '@mui/icons-material/FileUploadOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { useInput, useRecordContext, useTranslate } from 'react-admin';
import { AuthImage } from './AuthImage';
import { uploadImage } from './media';

const MAX_BYTES = 5 * 1024 * 1024;

/**
 * An image field holding the id of a file uploaded through POST /media: upload, preview (through
 * the authorised route) and removal. Type and size are checked again by the server. Files are
 * fetched by the URL the API gives: the record's own picture at `urlSource` (e.g. `image_url`),
 * a fresh upload at the `url` of its answer (the API serves it to its uploader only).
 */
export function ImageInput({ source, urlSource, label }: { source: string; urlSource: string; label: string }) {
  const translate = useTranslate();
  const record = useRecordContext();
  const { field, fieldState } = useInput({ source, defaultValue: null, format: (v) => v ?? null });
  const fileInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState<{ id: number; url: string } | null>(null);
  const value = field.value as number | null;
  const src =
    value === null
      ? null
      : uploaded?.id === value
        ? uploaded.url
        : record?.[source] === value
          ? ((record?.[urlSource] as string | null | undefined) ?? null)
          : null;

  const onPick = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (file.size > MAX_BYTES) {
      setError(translate('app.media.too_large', { size: 5 }));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const media = await uploadImage(file);
      setUploaded({ id: media.id, url: media.url });
      field.onChange(media.id);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const shownError = error ?? (fieldState.error?.message ? translate(fieldState.error.message, { _: fieldState.error.message }) : null);
  return (
    <Box sx={{ mb: 2, width: '100%' }}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate(label)}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        {src ? (
          <AuthImage src={src} alt={translate(label)} sx={{ width: 240, height: 135, borderRadius: 1 }} />
        ) : (
          <Box
            sx={{
              width: 240,
              height: 135,
              borderRadius: 1,
              border: '1px dashed',
              borderColor: 'divider',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              color: 'text.secondary',
            }}
          >
            <Typography variant="body2">{translate('app.media.no_image')}</Typography>
          </Box>
        )}
        <Stack spacing={1}>
          <Button variant="outlined" startIcon={<UploadOutlined />} onClick={() => fileInput.current?.click()} disabled={busy}>
            {translate(value ? 'app.media.replace_image' : 'app.media.upload_image')}
          </Button>
          {value && (
            <Button color="error" startIcon={<DeleteOutline />} onClick={() => field.onChange(null)} disabled={busy}>
              {translate('app.media.remove_image')}
            </Button>
          )}
          <Typography variant="caption" color="text.secondary">
            {translate('app.media.image_hint')}
          </Typography>
        </Stack>
      </Stack>
      <input
        ref={fileInput}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/gif"
        hidden
        onChange={onPick}
        data-testid={`${source}-file`}
        aria-label={translate(label)}
      />
      {busy && <LinearProgress aria-label={translate('ra.page.loading')} sx={{ mt: 1, maxWidth: 240 }} />}
      {shownError && <FormHelperText error>{shownError}</FormHelperText>}
    </Box>
  );
}
