import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, Autocomplete, Box, Button, Chip, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import AttachFile from '@mui/icons-material/AttachFile';
import { useNotify, useTranslate } from 'react-admin';
import { DEFAULT_DEADLINE_HOURS, REQUEST_PRIORITIES, type RequestPriority, type ServiceRequestForm } from '../../../contract/serviceRequests';
import type { MediaFile } from '../../../contract/media';
import type { RealtyType } from '../../../contract/realty';
import { UkDateTimeField } from '../../components/inputs/DateInputs';
import { useComplexSelection } from '../../layout/complexSelection';
import { usePageHeader } from '../../layout/navigation';
import { unitLabel } from '../../lib/unitLabel';
import { requestApi } from './api';

interface Draft {
  type_id: string;
  house_id: number | null;
  realty_id: string;
  member_id: string;
  text: string;
  priority: RequestPriority;
  deadline: string;
  responsible_id: string;
  performer_id: string;
}

const EMPTY: Draft = {
  type_id: '',
  house_id: null,
  realty_id: '',
  member_id: '',
  text: '',
  priority: 'normal',
  deadline: '',
  responsible_id: '',
  performer_id: '',
};
const num = (v: string) => (v === '' ? null : Number(v));

/** /Requests/create: type, address (the header's complex first), unit, resident, text, priority, deadline, staff and files. */
export default function RequestCreate() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const { complexId } = useComplexSelection();
  const [form, setForm] = useState<ServiceRequestForm | null>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [files, setFiles] = useState<MediaFile[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  usePageHeader(translate('resources.service_requests.create_title'), '/Requests');

  useEffect(() => {
    requestApi.form(draft.house_id ?? undefined).then(setForm, (err: Error) => setMessage(err.message));
  }, [draft.house_id]);

  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const houses = useMemo(() => {
    const all = form?.address ?? [];
    // The header's complex first: that is usually where the call comes from.
    return [...all].sort((a, b) => Number(b.complex_id === complexId) - Number(a.complex_id === complexId));
  }, [form, complexId]);
  const house = houses.find((h) => h.id === draft.house_id) ?? null;
  const staff = (form?.responsible ?? []).filter(
    (s) => !house || s.complex_ids === null || (house.complex_id !== null && s.complex_ids.includes(house.complex_id)),
  );
  const type = form?.types.find((t) => String(t.id) === draft.type_id);
  const residents = (form?.residents ?? []).filter((r) => !draft.realty_id || String(r.realty_id) === draft.realty_id);

  const submit = async () => {
    setSaving(true);
    setErrors({});
    setMessage(null);
    try {
      const created = await requestApi.create({
        type_id: num(draft.type_id) ?? undefined,
        house_id: draft.house_id ?? undefined,
        realty_id: num(draft.realty_id),
        member_id: num(draft.member_id),
        text: draft.text,
        priority: draft.priority,
        ...(draft.deadline ? { deadline: draft.deadline } : {}),
        responsible_id: num(draft.responsible_id),
        performer_id: num(draft.performer_id),
        media_ids: files.map((f) => f.id),
      });
      notify('resources.service_requests.notifications.created', { type: 'success' });
      navigate(`/Requests/${created.id}`);
    } catch (err) {
      const e = err as { message?: string; body?: { errors?: Record<string, string> } };
      setErrors(e.body?.errors ?? {});
      setMessage(e.message ?? String(err));
    } finally {
      setSaving(false);
    }
  };
  const fieldError = (name: string) => ({ error: Boolean(errors[name]), helperText: errors[name] });

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 880 }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Box
          component="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Stack spacing={2.5}>
            {message && <Alert severity="error">{message}</Alert>}
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                select
                required
                fullWidth
                label={translate('resources.service_requests.fields.type_id')}
                value={draft.type_id}
                onChange={(e) => set({ type_id: e.target.value })}
                {...fieldError('type_id')}
              >
                {(form?.types ?? []).map((t) => (
                  <MenuItem key={t.id} value={String(t.id)}>
                    {t.name}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                fullWidth
                label={translate('resources.service_requests.fields.priority')}
                value={draft.priority}
                onChange={(e) => set({ priority: e.target.value as RequestPriority })}
              >
                {REQUEST_PRIORITIES.map((p) => (
                  <MenuItem key={p} value={p}>
                    {translate(`resources.service_requests.priorities.${p}`)}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
            <Autocomplete
              options={houses}
              value={house}
              getOptionLabel={(h) => h.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              onChange={(_, h) => set({ house_id: h?.id ?? null, realty_id: '', member_id: '' })}
              renderInput={(params) => (
                <TextField {...params} required label={translate('resources.service_requests.fields.house_id')} {...fieldError('house_id')} />
              )}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <Autocomplete
                fullWidth
                disabled={!house}
                options={house ? (form?.units ?? []) : []}
                value={(form?.units ?? []).find((u) => String(u.id) === draft.realty_id) ?? null}
                // «кв. 12», «паркомісце 3», «комора 7»: the house is chosen above.
                getOptionLabel={(u) => unitLabel({ type: u.type as RealtyType, number: u.name }, translate)}
                isOptionEqualToValue={(a, b) => a.id === b.id}
                onChange={(_, u) => {
                  const owner = u ? (form?.residents ?? []).find((r) => r.realty_id === u.id) : undefined;
                  set({ realty_id: u ? String(u.id) : '', member_id: owner ? String(owner.id) : '' });
                }}
                noOptionsText={translate('resources.realty.picker.empty')}
                renderInput={(params) => (
                  <TextField
                    {...params}
                    label={translate('resources.service_requests.fields.realty_id')}
                    helperText={errors.realty_id ?? (!house ? translate('resources.service_requests.choose_house_first') : undefined)}
                    error={Boolean(errors.realty_id)}
                  />
                )}
              />
              <TextField
                select
                fullWidth
                disabled={!house}
                label={translate('resources.service_requests.fields.member_id')}
                value={draft.member_id}
                onChange={(e) => set({ member_id: e.target.value })}
                {...fieldError('member_id')}
              >
                <MenuItem value="">—</MenuItem>
                {residents.map((r) => (
                  <MenuItem key={`${r.id}-${r.realty_id}`} value={String(r.id)}>
                    {r.name}
                    {r.phone ? `, ${r.phone}` : ''}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
            <TextField
              required
              multiline
              minRows={4}
              label={translate('resources.service_requests.fields.text')}
              value={draft.text}
              onChange={(e) => set({ text: e.target.value })}
              slotProps={{ htmlInput: { maxLength: 5000 } }}
              {...fieldError('text')}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <UkDateTimeField
                fullWidth
                size="medium"
                label={translate('resources.service_requests.fields.deadline')}
                value={draft.deadline}
                onChange={(v) => set({ deadline: v ?? '' })}
                error={Boolean(errors.deadline)}
                helperText={errors.deadline ?? translate('resources.service_requests.deadline_hint', { hours: type?.deadline_hours ?? DEFAULT_DEADLINE_HOURS })}
              />
              <TextField
                select
                fullWidth
                label={translate('resources.service_requests.fields.responsible_id')}
                value={draft.responsible_id}
                onChange={(e) => set({ responsible_id: e.target.value })}
                {...fieldError('responsible_id')}
              >
                <MenuItem value="">{translate('resources.service_requests.nobody')}</MenuItem>
                {staff.map((s) => (
                  <MenuItem key={s.id} value={String(s.id)}>
                    {s.name}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                fullWidth
                label={translate('resources.service_requests.fields.performer_id')}
                value={draft.performer_id}
                onChange={(e) => set({ performer_id: e.target.value })}
                {...fieldError('performer_id')}
              >
                <MenuItem value="">{translate('resources.service_requests.nobody')}</MenuItem>
                {staff.map((s) => (
                  <MenuItem key={s.id} value={String(s.id)}>
                    {s.name}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
            <Box>
              <input
                ref={fileInput}
                type="file"
                hidden
                multiple
                accept="image/jpeg,image/png,image/webp,image/gif,application/pdf"
                data-testid="create-file-input"
                onChange={(e) => {
                  const picked = Array.from(e.target.files ?? []);
                  e.target.value = '';
                  setUploading(true);
                  (async () => {
                    for (const f of picked) {
                      const uploaded = await requestApi.upload(f);
                      setFiles((prev) => [...prev, uploaded]);
                    }
                  })()
                    .catch((err: Error) => setMessage(err.message))
                    .finally(() => setUploading(false));
                }}
              />
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
                <Button variant="outlined" startIcon={<AttachFile />} onClick={() => fileInput.current?.click()} disabled={uploading}>
                  {translate('resources.service_requests.add_files')}
                </Button>
                <Typography variant="caption" color="text.secondary">
                  {translate('resources.service_requests.files_hint')}
                </Typography>
                {files.map((f) => (
                  <Chip key={f.id} label={f.name} size="small" onDelete={() => setFiles(files.filter((x) => x.id !== f.id))} />
                ))}
              </Stack>
              {errors.media_ids && (
                <Typography variant="caption" color="error">
                  {errors.media_ids}
                </Typography>
              )}
            </Box>
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
              <Button onClick={() => navigate('/Requests')}>{translate('app.actions.cancel')}</Button>
              <Button type="submit" variant="contained" disabled={saving || uploading}>
                {translate('app.actions.save')}
              </Button>
            </Stack>
          </Stack>
        </Box>
      </Paper>
    </Box>
  );
}
