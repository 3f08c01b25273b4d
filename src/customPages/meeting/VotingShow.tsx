import { useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Card, CardContent, Chip, Grid, Stack, TextField, Typography } from '@mui/material';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import GroupIcon from '@mui/icons-material/Group';
import SendIcon from '@mui/icons-material/Send';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { BarChart } from '@mui/x-charts/BarChart';
import { ChartsReferenceLine } from '@mui/x-charts/ChartsReferenceLine';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import type { Voting, VotingQuestion } from '../../../contract/voting';
import { apiFetch } from '../../dataProvider/http';
import { UkDateField } from '../../components/inputs/DateInputs';
import { usePageHeader } from '../../layout/navigation';
import { formatDate, formatDateTime } from '../../lib/dates';
import { useRights } from '../../lib/useRights';
import { downloadFile, fetchVoting } from '../../resources/voting/api';
import { QuestionStatusChip, VotingStateChip } from '../../resources/voting/VotingStateChip';
import { LoadError } from '../../components/LoadError';
import { formatNumber as num } from '../../lib/numbers';

export const COLORS = { for: '#2e7d32', against: '#c62828', outstanding: '#bdbdbd' };

/** The body PUT /voting/{id} expects, from a record, with some fields changed. */
export function votingBody(v: Voting, changes: Partial<Record<string, unknown>> = {}) {
  return {
    house_id: v.house_id,
    title: v.title,
    regime: v.regime,
    initiator: v.initiator,
    meeting_date: v.meeting_date,
    meeting_time: v.meeting_time,
    place: v.place,
    video_tools: v.video_tools,
    chair: v.chair,
    statute_text: v.statute_text,
    signed_only: v.signed_only,
    notice_date: v.notice_date,
    results_notice_date: v.results_notice_date,
    questions: v.questions.map((q) => ({
      id: q.id,
      title: q.title,
      description: q.description,
      threshold: q.threshold,
      threshold_percent: q.threshold_percent,
      capped: q.capped,
    })),
    ...changes,
  };
}

/** One question: the resolution, its decision and a bar of «за» / «проти» / not voted against the threshold. */
function QuestionCard({ q }: { q: VotingQuestion }) {
  const translate = useTranslate();
  const t = q.tally;
  const rows = [
    { key: 'for', ...t.for },
    { key: 'against', ...t.against },
    { key: 'outstanding', ...t.outstanding },
  ] as const;
  return (
    <Card variant="outlined" data-testid={`question-${q.position}`}>
      <CardContent>
        <Stack direction="row" spacing={1} alignItems="flex-start" justifyContent="space-between">
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {q.position}. {q.title}
          </Typography>
          <QuestionStatusChip status={t.status} />
        </Stack>
        {q.description && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {q.description}
          </Typography>
        )}
        <Typography variant="body2" sx={{ mt: 1 }}>
          {translate('resources.voting.show.threshold', { text: q.threshold_text })}
        </Typography>
        <BarChart
          height={110}
          layout="horizontal"
          margin={{ left: 8, right: 16, top: 8, bottom: 0 }}
          yAxis={[{ scaleType: 'band', data: [''], width: 0 }]}
          xAxis={[{ min: 0, max: 100, valueFormatter: (v: number) => `${v} %`, height: 24 }]}
          series={rows.map((r) => ({
            data: [r.percent],
            stack: 'all',
            label: translate(`resources.voting.answers.${r.key}`),
            color: COLORS[r.key],
            valueFormatter: (v: number | null) => `${num(v ?? 0)} %`,
          }))}
          hideLegend
        >
          <ChartsReferenceLine
            x={t.threshold.percent}
            lineStyle={{ stroke: '#000', strokeDasharray: '4 3' }}
            labelStyle={{ fontSize: 11 }}
            label={`${num(t.threshold.percent)} %`}
            labelAlign="start"
          />
        </BarChart>
        <Grid container spacing={1}>
          {rows.map((r) => (
            <Grid key={r.key} size={{ xs: 12, sm: 4 }}>
              <Stack direction="row" spacing={1} alignItems="center">
                <Box sx={{ width: 12, height: 12, borderRadius: '2px', bgcolor: COLORS[r.key] }} />
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {translate(`resources.voting.answers.${r.key}`)}
                </Typography>
              </Stack>
              <Typography variant="body2" color="text.secondary" data-testid={`tally-${q.position}-${r.key}`}>
                {translate('resources.voting.show.counts', { smart_count: r.count, area: num(r.area), percent: num(r.percent) })}
              </Typography>
            </Grid>
          ))}
        </Grid>
        {!t.reachable && t.status === 'open' && (
          <Alert severity="warning" sx={{ mt: 1 }}>
            {translate('resources.voting.show.reachable_no')}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}

function Deadlines({ v }: { v: Voting }) {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const { canEdit } = useRights('votings');
  const [notice, setNotice] = useState(v.notice_date ?? '');
  const [results, setResults] = useState(v.results_notice_date ?? '');
  const save = async () => {
    try {
      const res = await apiFetch<{ data: Voting }>(`/voting/${v.id}`, {
        method: 'PUT',
        body: votingBody(v, { notice_date: notice || null, results_notice_date: results || null }),
      });
      client.setQueryData(['voting', String(v.id)], res.data);
      notify('resources.voting.show.dates_saved', { type: 'success' });
    } catch (err) {
      notify((err as Error).message, { type: 'error' });
    }
  };
  const row = (label: string, value: string | null) => (
    <Stack direction="row" justifyContent="space-between" sx={{ py: 0.5 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2">{value ? formatDate(value) : '—'}</Typography>
    </Stack>
  );
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('resources.voting.show.deadlines')}
        </Typography>
        {row(translate('resources.voting.show.notice_by'), v.deadlines.notice_by)}
        {row(translate('resources.voting.show.poll_ends'), v.deadlines.poll_ends)}
        {row(translate('resources.voting.show.results_by'), v.deadlines.results_by)}
        {canEdit && (
          <Stack spacing={1.5} sx={{ mt: 2 }}>
            <UkDateField label={translate('resources.voting.fields.notice_date')} value={notice} onChange={(d) => setNotice(d ?? '')} />
            <UkDateField label={translate('resources.voting.fields.results_notice_date')} value={results} onChange={(d) => setResults(d ?? '')} />
            <Button variant="outlined" size="small" onClick={save}>
              {translate('resources.voting.actions.save_dates')}
            </Button>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}

function ProtocolCard({ v }: { v: Voting }) {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const { canEdit } = useRights('votings');
  const input = useRef<HTMLInputElement>(null);
  const download = (generated: boolean) =>
    downloadFile(`/voting/${v.id}/protocol${generated ? '?generated=1' : ''}`, `protocol-${v.id}.pdf`).catch((err: Error) =>
      notify(err.message, { type: 'error' }),
    );
  const upload = async (file: File) => {
    const body = new FormData();
    body.append('file', file);
    body.append('type', 'protocol');
    try {
      const res = await apiFetch<{ data: Voting }>(`/voting/${v.id}/protocol`, { method: 'POST', body });
      client.setQueryData(['voting', String(v.id)], res.data);
      notify('resources.voting.notifications.protocol_uploaded', { type: 'success' });
    } catch (err) {
      notify((err as Error).message, { type: 'error' });
    }
  };
  const remove = async () => {
    try {
      const res = await apiFetch<{ data: Voting }>(`/voting/${v.id}/protocol`, { method: 'DELETE' });
      client.setQueryData(['voting', String(v.id)], res.data);
      notify('resources.voting.notifications.protocol_removed', { type: 'success' });
    } catch (err) {
      notify((err as Error).message, { type: 'error' });
    }
  };
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('resources.voting.show.protocol')}
        </Typography>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {v.protocol.uploaded
            ? translate('resources.voting.show.protocol_uploaded', { name: v.protocol.name })
            : translate('resources.voting.show.protocol_generated')}
        </Typography>
        <Stack spacing={1}>
          <Button variant="contained" startIcon={<DownloadIcon />} onClick={() => download(false)}>
            {translate('resources.voting.actions.protocol')}
          </Button>
          {v.protocol.uploaded && (
            <Button size="small" onClick={() => download(true)}>
              {translate('resources.voting.actions.protocol_generated')}
            </Button>
          )}
          {canEdit && (
            <>
              <input
                ref={input}
                type="file"
                hidden
                accept="application/pdf,image/jpeg,image/png"
                data-testid="protocol-file"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (file) void upload(file);
                }}
              />
              <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => input.current?.click()}>
                {translate('resources.voting.actions.upload_protocol')}
              </Button>
              {v.protocol.uploaded && (
                <Button size="small" color="error" onClick={remove}>
                  {translate('resources.voting.actions.remove_protocol')}
                </Button>
              )}
            </>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}

/** The co-owners' link: copy it, remind those who have not voted, or make a new one (the old one stops working). */
export function LinkCard({ v }: { v: Voting }) {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const { canEdit } = useRights('votings');
  const { data, error } = useQuery({
    queryKey: ['voting-link', v.id],
    queryFn: () => apiFetch<{ deeplink: string }>(`/voting/${v.id}/deeplink`),
    // A link that cannot be shown again (409) stays so until a new one is made.
    retry: false,
  });
  const [renewing, setRenewing] = useState(false);
  /** A new link: the old one stops opening the meeting (a lost link key, or a link that reached strangers). */
  const renew = async () => {
    setRenewing(false);
    try {
      const fresh = await apiFetch<{ deeplink: string }>(`/voting/${v.id}/deeplink`, { method: 'POST' });
      client.setQueryData(['voting-link', v.id], fresh);
      notify('resources.voting.show.link_renewed', { type: 'success' });
    } catch (err) {
      notify((err as Error).message, { type: 'warning' });
    }
  };
  const copy = async () => {
    if (!data) return;
    try {
      await navigator.clipboard.writeText(data.deeplink);
      notify('resources.voting.show.copied', { type: 'success' });
    } catch {
      window.prompt(translate('resources.voting.show.deeplink'), data.deeplink);
    }
  };
  const resend = async () => {
    try {
      const res = await apiFetch<{ data: { sent: number; skipped: number } }>(`/voting/${v.id}/replay-notification`, { method: 'POST' });
      notify(translate('resources.voting.show.resent', res.data), { type: 'success' });
      await client.invalidateQueries({ queryKey: ['voting', String(v.id)] });
    } catch (err) {
      notify((err as Error).message, { type: 'warning' });
    }
  };
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('resources.voting.show.deeplink')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('resources.voting.show.deeplink_hint')}
        </Typography>
        {error && !data && (
          <Alert severity="warning" sx={{ mb: 1 }}>
            {(error as Error).message}
          </Alert>
        )}
        <TextField
          value={data?.deeplink ?? ''}
          size="small"
          fullWidth
          slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'deeplink', 'aria-label': translate('resources.voting.show.deeplink') } }}
          sx={{ mb: 1 }}
        />
        <Stack spacing={1}>
          <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={copy} disabled={!data}>
            {translate('resources.voting.actions.copy_link')}
          </Button>
          {canEdit && (
            <Button variant="outlined" startIcon={<SendIcon />} onClick={resend}>
              {translate('resources.voting.actions.resend')}
            </Button>
          )}
          {canEdit && (
            <Button variant="outlined" color="warning" startIcon={<AutorenewIcon />} onClick={() => setRenewing(true)}>
              {translate('resources.voting.actions.renew_link')}
            </Button>
          )}
          <Confirm
            isOpen={renewing}
            title="resources.voting.show.renew_title"
            content="resources.voting.show.renew_content"
            confirm="resources.voting.actions.renew_link"
            onConfirm={renew}
            onClose={() => setRenewing(false)}
          />
          {v.last_notified_at && (
            <Typography variant="caption" color="text.secondary">
              {translate('resources.voting.show.last_notified', { date: formatDateTime(v.last_notified_at) })}
            </Typography>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}

/** /Voting/{id}: the meeting with live tallies per question, deadlines, warnings, the link and the protocol. */
export default function VotingShow() {
  const { id = '' } = useParams();
  const translate = useTranslate();
  const navigate = useNavigate();
  // Live: co-owners vote through the link while staff watch.
  const { data: v, error } = useQuery({ queryKey: ['voting', id], queryFn: () => fetchVoting(id), refetchInterval: 15_000 });
  usePageHeader(v?.title ?? translate('resources.voting.title'), '/Voting');
  if (error) return <LoadError error={error} />;
  if (!v) return null;
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, lg: 8 }}>
        <Stack spacing={2}>
          <Card>
            <CardContent>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} justifyContent="space-between" alignItems={{ sm: 'center' }}>
                <Box>
                  <Typography variant="h6">{v.title}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {v.address}
                  </Typography>
                </Box>
                <Stack direction="row" spacing={1}>
                  <Chip size="small" variant="outlined" label={translate(`resources.voting.regimes.${v.regime}`)} />
                  <VotingStateChip state={v.state} />
                </Stack>
              </Stack>
              <Grid container spacing={1} sx={{ mt: 1 }}>
                {[
                  ['meeting_date', translate('resources.voting.show.when', { date: formatDate(v.meeting_date), time: v.meeting_time })],
                  ['place', v.place],
                  ['video_tools', v.video_tools || '—'],
                  ['initiator', v.initiator],
                  ['chair', v.chair || '—'],
                ].map(([key, value]) => (
                  <Grid key={key} size={{ xs: 12, sm: 6 }}>
                    <Typography variant="caption" color="text.secondary">
                      {translate(`resources.voting.fields.${key}`)}
                    </Typography>
                    <Typography variant="body2">{value}</Typography>
                  </Grid>
                ))}
              </Grid>
              <Typography variant="body2" sx={{ mt: 1.5 }} data-testid="voting-total">
                {translate('resources.voting.show.total', { count: v.participants_count, area: num(v.total_area) })} ·{' '}
                {v.headcount
                  ? translate('resources.voting.show.counting_heads', { percent: num(v.largest_share_percent) })
                  : translate('resources.voting.show.counting_area')}
              </Typography>
              {v.statute_text && (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1, fontStyle: 'italic' }}>
                  {translate('resources.voting.fields.statute_text')}: «{v.statute_text}»
                </Typography>
              )}
              <Button sx={{ mt: 2 }} variant="contained" startIcon={<GroupIcon />} onClick={() => navigate(`/Voting/${v.id}/participants`)}>
                {translate('resources.voting.actions.participants')} ({v.voted_count} / {v.participants_count})
              </Button>
            </CardContent>
          </Card>
          {v.warnings.map((w) => (
            <Alert key={w.code} severity={w.level}>
              {w.message}
            </Alert>
          ))}
          {v.questions.map((q) => (
            <QuestionCard key={q.id} q={q} />
          ))}
        </Stack>
      </Grid>
      <Grid size={{ xs: 12, lg: 4 }}>
        <Stack spacing={2}>
          <LinkCard v={v} />
          <ProtocolCard v={v} />
          <Deadlines key={`${v.notice_date}-${v.results_notice_date}`} v={v} />
        </Stack>
      </Grid>
    </Grid>
  );
}
