import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Card, CardContent, CircularProgress, LinearProgress, MenuItem, Stack, TextField, Typography } from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { useAuthProvider, useNotify, useTranslate } from 'react-admin';
import type { SetupRecord, SetupStep } from '../../../contract/setup';
import { apiFetch } from '../../dataProvider/http';
import { usePageHeader } from '../../layout/navigation';
import { useCan } from '../../lib/useCan';
import { useCurrentUser } from '../../useCurrentUser';
import { errorsOf, fieldError, ErrorAlert, type SettingsErrors } from '../user/CodeDialog';

/** Where each step is done. */
const STEP_LINKS: Record<SetupStep, string | null> = {
  complex: '/Complex',
  houses: '/Complex',
  residents: '/Members',
  staff: null,
  request_types: '/Type-requests',
  news: '/News/create',
};

export const SETUP_QUERY_KEY = ['setup'];

/** Whether the checklist has nothing left: every step done. */
export const allDone = (setup: SetupRecord | undefined) => Boolean(setup && setup.steps.every((s) => s.done));

/** /Setup, 'З чого почати?': the first steps, each ticked when its data exists, and a colleague's invitation. */
export default function SetupPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const authProvider = useAuthProvider() as { refreshUser?: () => Promise<unknown> } | undefined;
  const { user, refetch } = useCurrentUser();
  usePageHeader(translate('app.setup.title'));
  const { data, isPending, error } = useQuery({ queryKey: SETUP_QUERY_KEY, queryFn: () => apiFetch<{ data: SetupRecord }>('/setup').then((r) => r.data) });
  const [finishing, setFinishing] = useState(false);

  const finish = async () => {
    if (!user) return;
    setFinishing(true);
    try {
      await apiFetch('/user', { method: 'POST', body: { name: user.name, tutorial_completed: true } });
      await authProvider?.refreshUser?.();
      refetch();
      notify('app.setup.finished', { type: 'success' });
      navigate('/');
    } catch (err) {
      notify((err as Error).message || 'app.errors.server', { type: 'error' });
      setFinishing(false);
    }
  };

  if (isPending) return <LinearProgress aria-label={translate('ra.page.loading')} />;
  if (error || !data) return <Alert severity="error">{translate('app.errors.server')}</Alert>;
  const done = data.steps.filter((s) => s.done).length;

  return (
    <Stack spacing={2} sx={{ maxWidth: 796 }}>
      <Card>
        <CardContent>
          <Typography variant="h6">{translate('app.setup.heading')}</Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {translate('app.setup.intro')}
          </Typography>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <LinearProgress
              variant="determinate"
              value={(done / data.steps.length) * 100}
              aria-label={`${translate('app.setup.heading')}: ${done}/${data.steps.length}`}
              sx={{ flex: 1, height: 8, borderRadius: 4 }}
            />
            <Typography data-testid="setup-progress">
              {done}/{data.steps.length}
            </Typography>
          </Stack>
        </CardContent>
      </Card>
      {data.steps.map((step, i) => (
        <Card key={step.key} data-testid={`setup-step-${step.key}`} data-done={step.done ? 'yes' : 'no'}>
          <CardContent>
            <Stack direction="row" spacing={2}>
              {step.done ? (
                <CheckCircleIcon color="success" aria-label={translate('app.setup.done')} />
              ) : (
                <RadioButtonUncheckedIcon color="disabled" aria-label={translate('app.setup.pending')} />
              )}
              <Box sx={{ flex: 1 }}>
                <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                  {i + 1}. {translate(`app.setup.steps.${step.key}.title`)}
                </Typography>
                <Typography color="text.secondary" sx={{ mb: 1 }}>
                  {translate(`app.setup.steps.${step.key}.text`)}
                </Typography>
                {step.key === 'staff' ? (
                  <InviteForm onSent={() => queryClient.invalidateQueries({ queryKey: SETUP_QUERY_KEY })} />
                ) : (
                  STEP_LINKS[step.key] && (
                    <Button component={RouterLink} to={STEP_LINKS[step.key]!} variant={step.done ? 'text' : 'outlined'} size="small">
                      {translate(step.done ? 'app.setup.open' : `app.setup.steps.${step.key}.action`)}
                    </Button>
                  )
                )}
              </Box>
            </Stack>
          </CardContent>
        </Card>
      ))}
      <Box>
        <Button variant="contained" onClick={finish} disabled={finishing} startIcon={finishing ? <CircularProgress size={16} color="inherit" /> : null}>
          {translate(allDone(data) ? 'app.setup.finish' : 'app.setup.finish_early')}
        </Button>
      </Box>
    </Stack>
  );
}

function InviteForm({ onSent }: { onSent: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const canInvite = useCan('staff', 'create');
  const { data: roles } = useQuery({
    queryKey: ['setup', 'roles'],
    queryFn: () => apiFetch<{ form: { roles: { id: number; name: string }[] } }>('/staff', { query: { per_page: 1 } }).then((r) => r.form.roles),
    enabled: canInvite,
  });
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [roleId, setRoleId] = useState<number | ''>('');
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [busy, setBusy] = useState(false);
  if (!canInvite) return <Typography variant="body2">{translate('app.setup.no_staff_rights')}</Typography>;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await apiFetch('/setup/step/sendInvite', { method: 'POST', body: { name, email, role_id: roleId === '' ? null : roleId } });
      notify('app.setup.invited', { type: 'success', messageArgs: { email } });
      setName('');
      setEmail('');
      setRoleId('');
      setErrors({});
      onSent();
    } catch (err) {
      setErrors(errorsOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack component="form" onSubmit={submit} spacing={1.5} noValidate>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          size="small"
          label={translate('app.user.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={Boolean(fieldError(errors, 'name'))}
          helperText={fieldError(errors, 'name')}
          sx={{ flex: '1 1 200px' }}
        />
        <TextField
          size="small"
          type="email"
          label={translate('app.user.email')}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={Boolean(fieldError(errors, 'email'))}
          helperText={fieldError(errors, 'email')}
          sx={{ flex: '1 1 200px' }}
        />
        <TextField
          size="small"
          select
          label={translate('app.user.role')}
          value={roleId}
          onChange={(e) => setRoleId(e.target.value === '' ? '' : Number(e.target.value))}
          error={Boolean(fieldError(errors, 'role_id'))}
          helperText={fieldError(errors, 'role_id')}
          sx={{ flex: '1 1 180px' }}
        >
          {(roles ?? []).map((r) => (
            <MenuItem key={r.id} value={r.id}>
              {r.name}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <ErrorAlert errors={errors} shown={['name', 'email', 'role_id']} />
      <Box>
        <Button type="submit" size="small" variant="outlined" disabled={busy}>
          {translate('app.setup.invite')}
        </Button>
      </Box>
    </Stack>
  );
}
