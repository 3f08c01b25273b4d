import { useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { Box, Button, FormHelperText, Stack, Typography } from '@mui/material';
import UploadOutlined from '@mui/icons-material/FileUploadOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { useFormContext } from 'react-hook-form';
import { useInput, useTranslate } from 'react-admin';
import { AuthImage } from './AuthImage';

const MAX_BYTES = 5 * 1024 * 1024;
const boxSx = { width: 240, height: 135, borderRadius: 1 } as const;

/**
 * A picture sent with the form itself (multipart `source`): the value is the authorised URL of
 * the current picture, a newly chosen File (previewed locally), or null; removing an existing
 * picture also sets `removeSource` so that the server drops it.
 */
export function FileImageInput({ source, label, removeSource }: { source: string; label: string; removeSource?: string }) {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const { field } = useInput({ source, defaultValue: null });
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const value = field.value as string | File | null;
  const preview = useMemo(() => (value instanceof File ? URL.createObjectURL(value) : null), [value]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const onPick = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (file.size > MAX_BYTES) return setError(translate('app.media.too_large', { size: 5 }));
    setError(null);
    field.onChange(file);
    if (removeSource) setValue(removeSource, undefined);
  };
  const remove = () => {
    if (typeof value === 'string' && removeSource) setValue(removeSource, 1, { shouldDirty: true });
    field.onChange(null);
  };

  return (
    <Box sx={{ mb: 2, width: '100%' }}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate(label)}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        {value instanceof File && preview ? (
          <Box component="img" src={preview} alt={translate(label)} sx={{ ...boxSx, objectFit: 'cover' }} />
        ) : typeof value === 'string' && value ? (
          <AuthImage src={value} alt={translate(label)} sx={boxSx} />
        ) : (
          <Box
            sx={{
              ...boxSx,
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
          <Button variant="outlined" startIcon={<UploadOutlined />} onClick={() => input.current?.click()}>
            {translate(value ? 'app.media.replace_image' : 'app.media.upload_image')}
          </Button>
          {value && (
            <Button color="error" startIcon={<DeleteOutline />} onClick={remove}>
              {translate('app.media.remove_image')}
            </Button>
          )}
          <Typography variant="caption" color="text.secondary">
            {translate('app.media.image_hint')}
          </Typography>
        </Stack>
      </Stack>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/gif"
        hidden
        onChange={onPick}
        data-testid={`${source}-file`}
        aria-label={translate(label)}
      />
      {error && <FormHelperText error>{error}</FormHelperText>}
    </Box>
  );
}
