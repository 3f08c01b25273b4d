import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  LinearProgress,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import UploadIcon from '@mui/icons-material/FileUploadOutlined';
import { useGetList, useNotify, useTranslate } from 'react-admin';
import type { House } from '../../../contract/houses';
import { FormDialog } from '../../components/FormDialog';
import { uploadImport, type ImportAnswer } from './api';

/**
 * Import of a house's units and residents from CSV or XLSX: the file is checked first (every row
 * with its errors), then imported in one transaction — all of it, or with the bad rows skipped
 * when the user says so.
 */
export function ImportDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { data: houses = [] } = useGetList<House>(
    'houses',
    { pagination: { page: 1, perPage: 1000 }, sort: { field: 'address', order: 'ASC' } },
    { enabled: open },
  );
  const [houseId, setHouseId] = useState<number | ''>('');
  const [file, setFile] = useState<File | null>(null);
  const [skip, setSkip] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reset = () => {
    setAnswer(null);
    setError(null);
  };
  const close = () => {
    reset();
    setFile(null);
    setSkip(false);
    setProgress(null);
    onClose();
  };

  const send = async (commit: boolean) => {
    if (!file || houseId === '') return;
    const form = new FormData();
    form.append('house_id', String(houseId));
    form.append('mode', commit ? 'commit' : 'preview');
    form.append('skip_invalid', skip ? '1' : '0');
    form.append('file', file);
    setError(null);
    setProgress(0);
    try {
      const result = await uploadImport(form, setProgress);
      setAnswer(result);
      if (result.committed && result.created) {
        notify(translate('resources.members.import.done', result.created), { type: 'success' });
        onImported();
        close();
      }
    } catch (err) {
      const body = (err as { body?: ImportAnswer & { message?: string } }).body;
      if (body?.rows) setAnswer(body);
      setError((err as Error).message);
    } finally {
      setProgress(null);
    }
  };

  const invalidRows = answer?.rows.filter((r) => r.errors.length > 0) ?? [];
  const canCommit = answer !== null && !answer.committed && answer.valid > 0 && (answer.invalid === 0 || skip);

  return (
    <FormDialog open={open} onClose={close} title={translate('resources.members.import.title')} size="large">
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary">
          {translate('resources.members.import.columns')}
        </Typography>
        <TextField
          select
          label={translate('resources.members.import.house')}
          value={houseId}
          onChange={(e) => {
            setHouseId(Number(e.target.value));
            reset();
          }}
          size="small"
          fullWidth
        >
          {houses.map((h) => (
            <MenuItem key={h.id} value={h.id}>
              {h.address}
            </MenuItem>
          ))}
        </TextField>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Button component="label" variant="outlined" startIcon={<UploadIcon />}>
            {translate('resources.members.import.choose_file')}
            <input
              hidden
              type="file"
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              aria-label={translate('resources.members.import.file')}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                reset();
              }}
            />
          </Button>
          <Typography variant="body2">{file?.name ?? translate('resources.members.import.file')}</Typography>
        </Stack>
        <FormControlLabel
          control={<Checkbox checked={skip} onChange={(e) => setSkip(e.target.checked)} />}
          label={translate('resources.members.import.skip_invalid')}
        />
        {progress !== null && (
          <Box>
            <LinearProgress variant="determinate" value={progress} />
            <Typography variant="caption">{translate('resources.members.import.uploading', { percent: progress })}</Typography>
          </Box>
        )}
        {error && <Alert severity="error">{error}</Alert>}
        {answer && (
          <Alert severity={answer.invalid ? 'warning' : 'success'}>
            {translate('resources.members.import.summary', { total: answer.total, valid: answer.valid, invalid: answer.invalid })}
            {answer.invalid > 0 && !skip ? ` ${translate('resources.members.import.has_errors')}` : ''}
          </Alert>
        )}
        {invalidRows.length > 0 && (
          <Box sx={{ maxHeight: 280, overflow: 'auto' }}>
            <Table size="small" stickyHeader>
              <TableHead>
                <TableRow>
                  <TableCell>{translate('resources.members.import.row')}</TableCell>
                  <TableCell>{translate('resources.residents.fields.number')}</TableCell>
                  <TableCell>{translate('resources.members.fields.name')}</TableCell>
                  <TableCell>{translate('resources.members.import.errors')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {invalidRows.slice(0, 200).map((r) => (
                  <TableRow key={r.line}>
                    <TableCell>{r.line}</TableCell>
                    <TableCell>{r.number}</TableCell>
                    <TableCell>{r.name}</TableCell>
                    <TableCell sx={{ color: 'error.main' }}>{r.errors.join(' ')}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={close}>{translate('app.actions.cancel')}</Button>
          <Button variant="outlined" disabled={!file || houseId === '' || progress !== null} onClick={() => send(false)}>
            {translate('resources.members.import.preview')}
          </Button>
          <Button variant="contained" disabled={!canCommit || progress !== null} onClick={() => send(true)}>
            {translate('resources.members.import.commit')}
          </Button>
        </Stack>
      </Stack>
    </FormDialog>
  );
}
