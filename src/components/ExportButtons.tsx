import { useState } from 'react';
import { Button, CircularProgress, Stack, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import { useNotify, useTranslate } from 'react-admin';
import type { Query } from '../dataProvider/http';
import { downloadExport } from '../lib/download';

const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} КБ` : `${(bytes / 1024 / 1024).toFixed(1)} МБ`);

/** CSV and Excel export (server-side, streamed) of a list's current filters, with the bytes received so far. */
export function ExportButtons({ path, filter }: { path: string; filter: Query }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [running, setRunning] = useState<'csv' | 'xlsx' | null>(null);
  const [bytes, setBytes] = useState(0);
  const run = async (format: 'csv' | 'xlsx') => {
    setRunning(format);
    setBytes(0);
    try {
      await downloadExport(path, format, filter, setBytes);
      notify('app.export.done', { type: 'success' });
    } catch (err) {
      notify((err as Error).message || 'app.export.failed', { type: 'error' });
    } finally {
      setRunning(null);
    }
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      {(['csv', 'xlsx'] as const).map((format) => (
        <Button
          key={format}
          size="small"
          variant="outlined"
          disabled={running !== null}
          startIcon={running === format ? <CircularProgress size={14} /> : <DownloadIcon />}
          onClick={() => run(format)}
        >
          {translate(`app.export.${format}`)}
        </Button>
      ))}
      {running && (
        <Typography variant="caption" color="text.secondary" role="status">
          {translate('app.export.progress', { size: size(bytes) })}
        </Typography>
      )}
    </Stack>
  );
}
