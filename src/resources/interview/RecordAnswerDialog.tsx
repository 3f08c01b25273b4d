import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Autocomplete,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { ANSWER_CHANNELS, type AnswerChannel, type Interview, type Respondent } from '../../../contract/interview';
import { fetchRespondents, recordAnswers } from './api';
import { useDebouncedValue } from '../../lib/useDebouncedValue';

type Draft = { option_ids?: number[]; value?: number; text?: string };

/** Staff record what a resident answered by phone or on a paper form: one answer set per resident. */
export function RecordAnswerDialog({ interview, onClose, onSaved }: { interview: Interview; onClose: () => void; onSaved: (i: Interview) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [search, setSearch] = useState('');
  const [member, setMember] = useState<Respondent | null>(null);
  const [channel, setChannel] = useState<AnswerChannel>('phone');
  const [answers, setAnswers] = useState<Record<number, Draft>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const typed = useDebouncedValue(search);
  const { data: candidates } = useQuery({
    queryKey: ['interview-candidates', interview.id, typed],
    queryFn: () => fetchRespondents(interview.id, { status: 'not_answered', search_query: typed.trim() || undefined, per_page: 20 }),
    placeholderData: (prev) => prev,
    // Each opening asks afresh: whoever was just recorded must not be offered again.
    gcTime: 0,
  });
  const set = (qid: number, d: Draft) => setAnswers({ ...answers, [qid]: d });
  const payload = () =>
    interview.questions
      .map((q) => ({ question_id: q.id, ...answers[q.id] }))
      .filter((a) => (a.option_ids?.length ?? 0) > 0 || a.value !== undefined || (a.text ?? '').trim() !== '');
  const errorFor = (qid: number) => {
    const i = payload().findIndex((a) => a.question_id === qid);
    return i < 0 ? undefined : Object.entries(errors).find(([k]) => k.startsWith(`answers.${i}.`))?.[1];
  };
  const save = async () => {
    if (!member) return;
    setSaving(true);
    try {
      const saved = await recordAnswers(interview.id, { member_id: member.id, channel, answers: payload() });
      notify('resources.interview.record.saved', { type: 'success' });
      onSaved(saved);
      onClose();
    } catch (err) {
      const e = err as Error & { body?: { errors?: Record<string, string> } };
      setErrors(e.body?.errors ?? {});
      notify(e.message, { type: 'error' });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{translate('resources.interview.record.title')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <Autocomplete
              fullWidth
              sx={{ flex: 1, minWidth: 280 }}
              options={candidates?.data ?? []}
              value={member}
              onChange={(_, v) => setMember(v)}
              onInputChange={(_, v, reason) => reason === 'input' && setSearch(v)}
              filterOptions={(x) => x}
              getOptionLabel={(m) => m.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              renderOption={(props, m) => (
                <li {...props} key={m.id}>
                  <Box>
                    <Typography variant="body2">{m.name}</Typography>
                    <Typography variant="caption" color="text.secondary">
                      {[m.phone, ...m.units].filter(Boolean).join(' · ')}
                    </Typography>
                  </Box>
                </li>
              )}
              renderInput={(params) => (
                <TextField
                  {...params}
                  size="small"
                  label={translate('resources.interview.fields.member')}
                  helperText={errors.member_id ?? translate('resources.interview.record.member_hint')}
                  error={Boolean(errors.member_id)}
                />
              )}
              data-testid="record-member"
            />
            <TextField
              select
              size="small"
              sx={{ minWidth: 220 }}
              label={translate('resources.interview.fields.channel')}
              value={channel}
              onChange={(e) => setChannel(e.target.value as AnswerChannel)}
            >
              {ANSWER_CHANNELS.map((c) => (
                <MenuItem key={c} value={c}>
                  {translate(`resources.interview.channels.${c}`)}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          {interview.questions.map((q) => {
            const a = answers[q.id] ?? {};
            const error = errorFor(q.id);
            return (
              <Box key={q.id} data-testid={`record-question-${q.position}`}>
                <Typography variant="subtitle2">
                  {q.position}. {q.title}
                </Typography>
                {q.kind === 'single' && (
                  <RadioGroup value={a.option_ids?.[0] ?? ''} onChange={(e) => set(q.id, { option_ids: [Number(e.target.value)] })}>
                    {q.options.map((o) => (
                      <FormControlLabel key={o.id} value={o.id} control={<Radio size="small" />} label={o.title} />
                    ))}
                  </RadioGroup>
                )}
                {q.kind === 'multiple' && (
                  <FormGroup>
                    {q.options.map((o) => (
                      <FormControlLabel
                        key={o.id}
                        label={o.title}
                        control={
                          <Checkbox
                            size="small"
                            checked={a.option_ids?.includes(o.id) ?? false}
                            onChange={(e) =>
                              set(q.id, { option_ids: e.target.checked ? [...(a.option_ids ?? []), o.id] : (a.option_ids ?? []).filter((x) => x !== o.id) })
                            }
                          />
                        }
                      />
                    ))}
                  </FormGroup>
                )}
                {q.kind === 'scale' && (
                  <RadioGroup row value={a.value ?? ''} onChange={(e) => set(q.id, { value: Number(e.target.value) })}>
                    {Array.from({ length: q.scale_max ?? 5 }, (_, i) => (
                      <FormControlLabel key={i} value={i + 1} control={<Radio size="small" />} label={String(i + 1)} />
                    ))}
                  </RadioGroup>
                )}
                {q.kind === 'text' && (
                  <TextField fullWidth multiline minRows={2} size="small" value={a.text ?? ''} onChange={(e) => set(q.id, { text: e.target.value })} />
                )}
                {error && <FormHelperText error>{error}</FormHelperText>}
              </Box>
            );
          })}
          {errors.answers && <FormHelperText error>{errors.answers}</FormHelperText>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('app.actions.cancel')}</Button>
        <Button variant="contained" onClick={save} disabled={saving || !member || payload().length === 0}>
          {translate('app.actions.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
