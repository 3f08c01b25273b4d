import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Card, CardContent, Grid, Stack, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import GroupIcon from '@mui/icons-material/Group';
import PlaylistAddCheckIcon from '@mui/icons-material/PlaylistAddCheck';
import { EditBase, useNotify, useTranslate } from 'react-admin';
import type { Interview } from '../../../contract/interview';
import { usePageHeader } from '../../layout/navigation';
import { formatDateTime } from '../../lib/dates';
import { useRights } from '../../lib/useRights';
import { fetchInterview } from './api';
import { InterviewForm, interviewTransform } from './InterviewForm';
import { InterviewResults } from './InterviewResults';
import { InterviewStatusChip } from './InterviewStatusChip';
import { RecordAnswerDialog } from './RecordAnswerDialog';
import { LoadError } from '../../components/LoadError';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Grid size={{ xs: 12, sm: 6, md: 3 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" component="div">
        {children}
      </Typography>
    </Grid>
  );
}

/** The survey's own form in place of its results: everything before the first answer, less after it. */
function EditPanel({ interview, onDone }: { interview: Interview; onDone: () => void }) {
  const notify = useNotify();
  const locked = interview.questions_locked;
  return (
    <EditBase<Interview>
      resource="interview"
      id={interview.id}
      redirect={false}
      mutationMode="pessimistic"
      transform={interviewTransform(locked ? interview : undefined)}
      mutationOptions={{
        onSuccess: () => {
          notify('resources.interview.notifications.updated', { type: 'success' });
          onDone();
        },
      }}
    >
      <Card sx={{ maxWidth: 1000 }}>
        <InterviewForm locked={locked} onCancel={onDone} />
      </Card>
    </EditBase>
  );
}

/** /Interview/{id}: the survey, its questions with result charts, and the dialog to record a resident's answers. */
export default function InterviewShow() {
  const { id = '' } = useParams();
  const translate = useTranslate();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { canEdit } = useRights('interviews');
  const [editing, setEditing] = useState(false);
  const [recording, setRecording] = useState(false);
  const { data: s, error } = useQuery({ queryKey: ['interview', id], queryFn: () => fetchInterview(id), enabled: /^\d+$/.test(id) });
  usePageHeader(editing ? translate('resources.interview.edit_title') : (s?.title ?? translate('resources.interview.title')), '/Interview');
  if (error) return <LoadError error={error} />;
  if (!s) return null;
  const refresh = (fresh?: Interview) => {
    if (fresh) client.setQueryData(['interview', id], fresh);
    else void client.invalidateQueries({ queryKey: ['interview', id] });
  };
  if (editing)
    return (
      <EditPanel
        interview={s}
        onDone={() => {
          setEditing(false);
          refresh();
        }}
      />
    );
  return (
    <Box sx={{ maxWidth: 1100 }}>
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} justifyContent="space-between" alignItems={{ md: 'flex-start' }} sx={{ mb: 1 }}>
            <Box>
              <Typography variant="h6">{s.title}</Typography>
              {s.description && (
                <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-line' }}>
                  {s.description}
                </Typography>
              )}
            </Box>
            <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
              {canEdit && s.status === 'active' && (
                <Button variant="contained" size="small" startIcon={<PlaylistAddCheckIcon />} onClick={() => setRecording(true)} data-testid="record-answer">
                  {translate('resources.interview.actions.record_answer')}
                </Button>
              )}
              <Button variant="outlined" size="small" startIcon={<GroupIcon />} onClick={() => navigate(`/Interview/${s.id}/users`)}>
                {translate('resources.interview.actions.respondents')}
              </Button>
              {canEdit && (
                <Button variant="outlined" size="small" startIcon={<EditIcon />} onClick={() => setEditing(true)}>
                  {translate('resources.interview.actions.edit')}
                </Button>
              )}
            </Stack>
          </Stack>
          <Grid container spacing={2}>
            <Fact label={translate('resources.interview.fields.status')}>
              <InterviewStatusChip status={s.status} />
            </Fact>
            <Fact label={translate('resources.interview.fields.period')}>
              {formatDateTime(s.start_at)} – {formatDateTime(s.end_at)}
            </Fact>
            <Fact label={translate('resources.interview.fields.audience')}>
              {s.houses.length ? s.houses.map((h) => h.address).join('; ') : s.complexes.map((c) => c.name).join(', ')}
            </Fact>
            <Fact label={translate('resources.interview.fields.responses')}>
              <span data-testid="responses">
                {translate('resources.interview.show.of_audience', { answered: s.responses_count, audience: s.audience_count })}
              </span>
              {s.anonymous && ` · ${translate('resources.interview.fields.anonymous')}`}
            </Fact>
          </Grid>
          {canEdit && s.status !== 'active' && (
            <Alert severity="info" sx={{ mt: 2 }}>
              {translate('resources.interview.hints.not_active')}
            </Alert>
          )}
        </CardContent>
      </Card>
      <InterviewResults interview={s} />
      {recording && <RecordAnswerDialog interview={s} onClose={() => setRecording(false)} onSaved={(fresh) => refresh(fresh)} />}
    </Box>
  );
}
