import { useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  FormControlLabel,
  Radio,
  RadioGroup,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import DescriptionIcon from '@mui/icons-material/Description';
import { useNotify, useTranslate } from 'react-admin';
import { BALLOT_STATUSES, type BallotStatus, type Voting, type VotingBallot, type VotingParticipant } from '../../../contract/voting';
import { StateChip } from '../../components/content/StateChip';
import { UkDateField } from '../../components/inputs/DateInputs';
import { apiFetch } from '../../dataProvider/http';
import { usePageHeader } from '../../layout/navigation';
import { formatDate } from '../../lib/dates';
import { useRights } from '../../lib/useRights';
import { downloadFile, fetchParticipants, fetchVoting, votingPath } from '../../resources/voting/api';
import { COLORS } from './VotingShow';
import { formatNumber as num } from '../../lib/numbers';
import { useConfirm } from '../../components/useConfirm';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { useUrlListState } from '../../resources/generic/urlListState';

const LIST_DEFAULTS = { sort: { field: 'name', order: 'ASC' as const }, perPage: 25 };
const STATUS_TONES: Record<BallotStatus, 'default' | 'warning' | 'success'> = { not_voted: 'default', partial: 'warning', voted: 'success' };
const UNIT = { apartment: 'кв.', commercial: 'нежитл.', parking: 'паркомісце', storage: 'комора' } as Record<string, string>;

function BallotLine({ b, votingId, canEdit, onChanged }: { b: VotingBallot; votingId: number; canEdit: boolean; onChanged: () => void }) {
  const translate = useTranslate();
  const [ask, confirmDialog] = useConfirm();
  const notify = useNotify();
  const annul = async () => {
    if (!(await ask({ title: translate('resources.voting.sheet.annul_confirm') }))) return;
    try {
      await apiFetch(`/voting/${votingId}/ballots/${b.id}`, { method: 'DELETE' });
      notify('resources.voting.sheet.annulled', { type: 'success' });
      onChanged();
    } catch (err) {
      notify((err as Error).message, { type: 'error' });
    }
  };
  const how =
    b.channel === 'paper'
      ? translate('resources.voting.sheet.paper', { date: formatDate(b.ballot_date) })
      : translate('resources.voting.sheet.electronic', {
          how: translate(`resources.voting.sheet.${b.identification ?? 'sms_code'}`),
          target: b.identified_target ?? '',
          signed: translate(b.signed ? 'resources.voting.sheet.signed' : 'resources.voting.sheet.unsigned'),
        });
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }} justifyContent="space-between" sx={{ py: 0.5 }}>
      <Box>
        <Typography variant="body2">
          {how}
          {b.channel === 'electronic' && ` · ${formatDate(b.ballot_date)}`}
        </Typography>
        {b.representative && (
          <Typography variant="caption" color="text.secondary">
            {b.representative} — {b.representative_document}
          </Typography>
        )}
      </Box>
      <Stack direction="row" spacing={1}>
        {b.sheet && (
          <Button
            size="small"
            startIcon={<DescriptionIcon />}
            onClick={() => downloadFile(b.sheet!.url, b.sheet!.name, true).catch((e: Error) => notify(e.message, { type: 'error' }))}
          >
            {translate('resources.voting.actions.view_sheet')}
          </Button>
        )}
        {canEdit && (
          <Button size="small" color="error" onClick={annul}>
            {translate('resources.voting.actions.annul')}
          </Button>
        )}
        {confirmDialog}
      </Stack>
    </Stack>
  );
}

/** A co-owner's ballots and the form to record a paper sheet: its scan (with a preview) and the answers written on it. */
function SheetDialog({ voting, participant, onClose, onSaved }: { voting: Voting; participant: VotingParticipant; onClose: () => void; onSaved: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { canEdit } = useRights('votings');
  const [file, setFile] = useState<File | null>(null);
  const [answers, setAnswers] = useState<Record<string, 'for' | 'against'>>({});
  const [date, setDate] = useState(new Date().toISOString().slice(0, 10));
  const [representative, setRepresentative] = useState('');
  const [representativeDocument, setRepresentativeDocument] = useState('');
  const [ownershipDocument, setOwnershipDocument] = useState(participant.ownership_document);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const preview = useMemo(() => (file && file.type.startsWith('image/') ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);
  const answeredBefore = (qid: number) => {
    for (const b of participant.ballots) if (b.answers[String(qid)]) return { answer: b.answers[String(qid)], channel: b.channel, date: b.ballot_date };
    return null;
  };
  const save = async () => {
    const body = new FormData();
    if (file) body.append('file', file);
    body.append('type', 'sheet');
    body.append('ballot_date', date);
    body.append('representative', representative);
    body.append('representative_document', representativeDocument);
    body.append('ownership_document', ownershipDocument);
    for (const [q, a] of Object.entries(answers)) body.append(`answer_${q}`, a);
    setSaving(true);
    try {
      await apiFetch(`/voting/${voting.id}/resident/${participant.id}/upload_sheet`, { method: 'POST', body });
      notify('resources.voting.sheet.saved', { type: 'success' });
      onSaved();
      onClose();
    } catch (err) {
      const e = err as Error & { body?: { errors?: Record<string, string> } };
      setErrors(e.body?.errors ?? {});
      notify(e.message, { type: 'error' });
    } finally {
      setSaving(false);
    }
  };
  const answerable = voting.questions.filter((q) => !answeredBefore(q.id));
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{translate('resources.voting.sheet.title', { name: participant.name })}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {participant.units.map((u) => `${UNIT[u.type] ?? ''} ${u.number} (${u.area === null ? '—' : num(u.area)} м², ${u.share})`).join('; ')} ·{' '}
          {num(participant.area)} м² · {num(participant.weight_percent)} %
        </Typography>
        {participant.ballots.map((b) => (
          <BallotLine
            key={b.id}
            b={b}
            votingId={voting.id}
            canEdit={canEdit}
            onChanged={() => {
              onSaved();
              onClose();
            }}
          />
        ))}
        {participant.ballots.length > 0 && <Divider sx={{ my: 1.5 }} />}
        {canEdit && answerable.length > 0 && (
          <Stack spacing={2}>
            <Box>
              <Button variant="outlined" component="label">
                {translate('resources.voting.fields.file')}
                <input
                  hidden
                  type="file"
                  accept="application/pdf,image/jpeg,image/png"
                  data-testid="sheet-file"
                  onChange={(e) => setFile(e.target.files?.[0] ?? null)}
                />
              </Button>
              {file && (
                <Typography variant="body2" sx={{ mt: 1 }}>
                  {file.name} · {num(file.size / 1024)} КБ
                </Typography>
              )}
              {errors.file && (
                <Typography color="error" variant="caption">
                  {errors.file}
                </Typography>
              )}
              {preview && (
                <Box component="img" src={preview} alt={file?.name} sx={{ mt: 1, maxWidth: '100%', maxHeight: 320, border: 1, borderColor: 'divider' }} />
              )}
            </Box>
            <Typography variant="subtitle2">{translate('resources.voting.sheet.answers')}</Typography>
            {voting.questions.map((q) => {
              const before = answeredBefore(q.id);
              return (
                <Box key={q.id}>
                  <Typography variant="body2">
                    {q.position}. {q.title}
                  </Typography>
                  {before ? (
                    <Typography variant="caption" color="text.secondary">
                      {translate('resources.voting.sheet.answered', {
                        answer: translate(`resources.voting.answers.${before.answer}`),
                        channel: translate(`resources.voting.sheet.channel_${before.channel}`),
                        date: formatDate(before.date),
                      })}
                    </Typography>
                  ) : (
                    <RadioGroup
                      row
                      value={answers[String(q.id)] ?? ''}
                      onChange={(e) => setAnswers({ ...answers, [String(q.id)]: e.target.value as 'for' | 'against' })}
                    >
                      <FormControlLabel
                        value="for"
                        control={<Radio size="small" />}
                        label={translate('resources.voting.answers.for')}
                        data-testid={`sheet-${q.position}-for`}
                      />
                      <FormControlLabel
                        value="against"
                        control={<Radio size="small" />}
                        label={translate('resources.voting.answers.against')}
                        data-testid={`sheet-${q.position}-against`}
                      />
                    </RadioGroup>
                  )}
                </Box>
              );
            })}
            {errors.answers && (
              <Typography color="error" variant="caption">
                {errors.answers}
              </Typography>
            )}
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <UkDateField
                label={translate('resources.voting.fields.ballot_date')}
                value={date}
                onChange={(d) => setDate(d ?? '')}
                error={Boolean(errors.ballot_date)}
                helperText={errors.ballot_date}
              />
              <TextField
                size="small"
                sx={{ flex: 1 }}
                label={translate('resources.voting.fields.ownership_document')}
                value={ownershipDocument}
                onChange={(e) => setOwnershipDocument(e.target.value)}
              />
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                size="small"
                sx={{ flex: 1 }}
                label={translate('resources.voting.fields.representative')}
                value={representative}
                onChange={(e) => setRepresentative(e.target.value)}
              />
              <TextField
                size="small"
                sx={{ flex: 1 }}
                label={translate('resources.voting.fields.representative_document')}
                value={representativeDocument}
                onChange={(e) => setRepresentativeDocument(e.target.value)}
              />
            </Stack>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('app.actions.cancel')}</Button>
        {canEdit && answerable.length > 0 && (
          <Button variant="contained" onClick={save} disabled={saving || !file || Object.keys(answers).length === 0}>
            {translate('app.actions.save')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

/** /Voting/{id}/participants: every co-owner with units, area, share and ballot; paper sheets recorded per row. */
export default function VotingParticipants() {
  const { id = '' } = useParams();
  const translate = useTranslate();
  const client = useQueryClient();
  // The tab, search and page live in the address, as on every list: reload and Back keep them.
  const list = useUrlListState(LIST_DEFAULTS);
  const status = (BALLOT_STATUSES as readonly string[]).includes(list.get('status')) ? (list.get('status') as BallotStatus) : '';
  const search = list.get('q');
  const { page, perPage } = list;
  const [open, setOpen] = useState<VotingParticipant | null>(null);
  const { data: voting } = useQuery({ queryKey: ['voting', id], queryFn: () => fetchVoting(id) });
  const typed = useDebouncedValue(search);
  const query = { status: status || undefined, search_query: typed.trim() || undefined, page, per_page: perPage };
  const { data } = useQuery({ queryKey: ['voting-participants', id, query], queryFn: () => fetchParticipants(id, query), placeholderData: (prev) => prev });
  usePageHeader(voting ? translate('resources.voting.participants_title', { title: voting.title }) : translate('resources.voting.title'), votingPath(id));
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['voting-participants', id] });
    void client.invalidateQueries({ queryKey: ['voting', id] });
  };
  if (!voting) return null;
  const summary = data?.summary ?? {};
  const all = BALLOT_STATUSES.reduce((s, k) => s + (summary[k] ?? 0), 0);
  return (
    <Box>
      <Card sx={{ mb: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'center' }} sx={{ px: 2, pt: 1 }}>
          <Tabs value={status} onChange={(_, v: string) => list.update({ filter: { status: v } })} variant="scrollable">
            <Tab value="" label={`${translate('resources.voting.filters.all_statuses')} (${all})`} />
            {BALLOT_STATUSES.map((s) => (
              <Tab key={s} value={s} label={`${translate(`resources.voting.ballot_statuses.${s}`)} (${summary[s] ?? 0})`} data-testid={`filter-${s}`} />
            ))}
          </Tabs>
          <TextField
            size="small"
            placeholder={translate('ra.action.search')}
            value={search}
            onChange={(e) => list.update({ filter: { q: e.target.value } })}
            slotProps={{ htmlInput: { 'aria-label': translate('ra.action.search') } }}
            sx={{ minWidth: 240, ml: { md: 'auto' } }}
          />
        </Stack>
        <TableContainer>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate('resources.voting.fields.name')}</TableCell>
                <TableCell>{translate('resources.voting.fields.units')}</TableCell>
                <TableCell align="right">{translate('resources.voting.fields.area')}</TableCell>
                <TableCell align="right">{translate('resources.voting.fields.weight')}</TableCell>
                <TableCell>{translate('resources.voting.fields.status')}</TableCell>
                {voting.questions.map((q) => (
                  <TableCell key={q.id} align="center" title={q.title}>
                    № {q.position}
                  </TableCell>
                ))}
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {(data?.data ?? []).map((p) => (
                <TableRow key={p.id} hover data-testid={`participant-${p.id}`}>
                  <TableCell>
                    <Typography variant="body2">{p.name}</Typography>
                    <Typography variant="caption" color="text.secondary">
                      {[p.phone, p.email].filter(Boolean).join(' · ') || '—'}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {p.units.map((u) => (
                      <Typography key={`${u.type}-${u.number}`} variant="body2">
                        {UNIT[u.type] ?? ''} {u.number} · {u.area === null ? '—' : num(u.area)} м² · {u.share}
                      </Typography>
                    ))}
                  </TableCell>
                  <TableCell align="right">{num(p.area)}</TableCell>
                  <TableCell align="right">{num(p.weight_percent)}</TableCell>
                  <TableCell>
                    <Stack direction="row" spacing={0.5} alignItems="center">
                      <StateChip label={`resources.voting.ballot_statuses.${p.status}`} tone={STATUS_TONES[p.status]} />
                      {p.ballots.some((b) => b.channel === 'electronic') && (
                        <Chip size="small" variant="outlined" label="е" title={translate('resources.voting.sheet.channel_electronic')} />
                      )}
                      {p.ballots.some((b) => b.channel === 'paper') && (
                        <DescriptionIcon fontSize="small" color="action" titleAccess={translate('resources.voting.sheet.channel_paper')} />
                      )}
                    </Stack>
                  </TableCell>
                  {voting.questions.map((q) => {
                    const a = p.answers[String(q.id)];
                    return (
                      <TableCell key={q.id} align="center" sx={{ color: a ? COLORS[a] : 'text.disabled', fontWeight: 600 }}>
                        {a ? translate(`resources.voting.answers.${a}`) : '—'}
                      </TableCell>
                    );
                  })}
                  <TableCell align="right">
                    <Button size="small" onClick={() => setOpen(p)} data-testid={`sheet-${p.id}`}>
                      {translate('resources.voting.actions.record_sheet')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {data && data.pagination.total === 0 && (
          <Alert severity="info" sx={{ m: 2 }}>
            —
          </Alert>
        )}
        <TablePagination
          component="div"
          count={data?.pagination.total ?? 0}
          page={Math.max(0, page - 1)}
          rowsPerPage={perPage}
          rowsPerPageOptions={[10, 25, 50, 100]}
          onPageChange={(_, p) => list.update({ page: p + 1 })}
          onRowsPerPageChange={(e) => list.update({ perPage: Number(e.target.value) })}
        />
      </Card>
      {open && <SheetDialog voting={voting} participant={open} onClose={() => setOpen(null)} onSaved={refresh} />}
    </Box>
  );
}
