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
import { useRights } from '../../lib/useRights';
import { useCurrentUser } from '../../useCurrentUser';
import { errorsOf, fieldError, ErrorAlert, type SettingsErrors } from '../user/CodeDialog';
import { ROLE_PRESET_KEYS, ROLE_PRESETS, type RolePreset } from './rolePresets';

/** Where each step is done (the staff step is done right here, with the invitation form). */
const STEP_LINKS: Record<Exclude<SetupStep, 'staff'>, string> = {
  complex: '/Complex',
  houses: '/Complex',
  residents: '/Members',
  staff_roles: '/Roles-departments',
  request_types: '/Type-requests',
  news: '/News/create',
};

type StepRecord = SetupRecord['steps'][number];

/** Where a step's button leads: the houses of a complex (one without houses first), or the list where the step is done. */
export function stepLink(step: StepRecord): string | null {
  if (step.key === 'staff') return null;
  if (step.key === 'houses' && step.complex_id) return `/Complex/${step.complex_id}/houses`;
  return STEP_LINKS[step.key];
}

/**
 * The button's words: «Відкрити» once done; before that the step's own action («До будинків»),
 * or «Спершу додайте комплекс» with no complex to add houses to.
 */
function stepAction(step: StepRecord): string {
  if (step.done) return 'app.setup.open';
  if (step.key === 'houses' && !step.complex_id) return 'app.setup.steps.houses.no_complex';
  return `app.setup.steps.${step.key}.action`;
}

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
                  <InviteForm onChanged={() => queryClient.invalidateQueries({ queryKey: SETUP_QUERY_KEY })} />
                ) : (
                  <Button component={RouterLink} to={stepLink(step)!} variant={step.done ? 'text' : 'outlined'} size="small">
                    {translate(stepAction(step))}
                  </Button>
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

const ROLES_QUERY_KEY = ['setup', 'roles'];

/**
 * The invitation of a colleague: name, e-mail, a staff role and the complexes they work in. The
 * role is required (POST /staff), so while the organization has none the step offers to create
 * the first one here instead.
 */
function InviteForm({ onChanged }: { onChanged: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { user } = useCurrentUser();
  const { canCreate: canInvite } = useRights('staff');
  const { data: roles } = useQuery({
    queryKey: ROLES_QUERY_KEY,
    queryFn: () => apiFetch<{ form: { roles: { id: number; name: string }[] } }>('/staff', { query: { per_page: 1 } }).then((r) => r.form.roles),
    enabled: canInvite,
  });
  const complexes = user?.complexes ?? [];
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [roleId, setRoleId] = useState<number | ''>('');
  // Every complex of the inviter's by default: a colleague without a complex sees nothing.
  const [complexIds, setComplexIds] = useState<number[] | null>(null);
  const chosenComplexes = complexIds ?? complexes.map((c) => Number(c.id));
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [busy, setBusy] = useState(false);
  if (!canInvite) return <Typography variant="body2">{translate('app.setup.no_staff_rights')}</Typography>;
  if (roles === undefined) return <LinearProgress aria-label={translate('ra.page.loading')} sx={{ maxWidth: 240 }} />;
  if (roles.length === 0) {
    return (
      <FirstRoleForm
        onCreated={async (id) => {
          await queryClient.invalidateQueries({ queryKey: ROLES_QUERY_KEY });
          setRoleId(id);
          onChanged();
        }}
      />
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await apiFetch('/setup/step/sendInvite', {
        method: 'POST',
        body: { name, email, role_id: roleId === '' ? null : roleId, complex_ids: chosenComplexes },
      });
      notify('app.setup.invited', { type: 'success', messageArgs: { email } });
      setName('');
      setEmail('');
      setRoleId('');
      setErrors({});
      onChanged();
    } catch (err) {
      setErrors(errorsOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack component="form" onSubmit={submit} spacing={1.5} noValidate aria-label={translate('app.setup.steps.staff.title')}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          size="small"
          label={translate('app.user.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={Boolean(fieldError(errors, 'name'))}
          helperText={fieldError(errors, 'name')}
          sx={{ flex: { sm: '1 1 200px' } }}
        />
        <TextField
          size="small"
          type="email"
          label={translate('app.user.email')}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={Boolean(fieldError(errors, 'email'))}
          helperText={fieldError(errors, 'email')}
          sx={{ flex: { sm: '1 1 200px' } }}
        />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          size="small"
          select
          label={translate('app.user.role')}
          value={roleId}
          onChange={(e) => setRoleId(e.target.value === '' ? '' : Number(e.target.value))}
          error={Boolean(fieldError(errors, 'role_id'))}
          helperText={fieldError(errors, 'role_id')}
          sx={{ flex: { sm: '1 1 200px' } }}
        >
          {roles.map((r) => (
            <MenuItem key={r.id} value={r.id}>
              {r.name}
            </MenuItem>
          ))}
        </TextField>
        {complexes.length > 0 && (
          <TextField
            size="small"
            select
            label={translate('app.setup.complexes')}
            value={chosenComplexes}
            onChange={(e) => setComplexIds((e.target.value as unknown as (number | string)[]).map(Number))}
            error={Boolean(fieldError(errors, 'complex_ids'))}
            helperText={fieldError(errors, 'complex_ids')}
            slotProps={{
              select: {
                multiple: true,
                renderValue: (selected) =>
                  (selected as number[]).length === complexes.length
                    ? translate('app.setup.all_complexes')
                    : complexes
                        .filter((c) => (selected as number[]).includes(Number(c.id)))
                        .map((c) => c.name)
                        .join(', '),
              },
            }}
            sx={{ flex: { sm: '1 1 200px' }, minWidth: 0 }}
          >
            {complexes.map((c) => (
              <MenuItem key={c.id} value={Number(c.id)}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      </Stack>
      <ErrorAlert errors={errors} shown={['name', 'email', 'role_id', 'complex_ids']} />
      <Box>
        <Button type="submit" size="small" variant="outlined" disabled={busy}>
          {translate('app.setup.invite')}
        </Button>
      </Box>
    </Stack>
  );
}

/** The first staff role, from one of the usual presets (rolePresets.ts); its rights can be changed on /Roles-departments. */
function FirstRoleForm({ onCreated }: { onCreated: (id: number) => Promise<void> }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { canCreate } = useRights('staff_roles');
  const [preset, setPreset] = useState<RolePreset>('dispatcher');
  const [name, setName] = useState<string | null>(null);
  const roleName = name ?? translate(`app.setup.role_presets.${preset}.name`);
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [busy, setBusy] = useState(false);
  if (!canCreate) {
    return (
      <Typography variant="body2" data-testid="setup-no-roles">
        {translate('app.setup.no_roles_no_rights')}
      </Typography>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const created = await apiFetch<{ id: number }>('/staff_role', {
        method: 'POST',
        body: { name: roleName, departure_id: null, permissions: ROLE_PRESETS[preset] },
      });
      notify('app.setup.role_created', { type: 'success', messageArgs: { name: roleName } });
      setErrors({});
      await onCreated(created.id);
    } catch (err) {
      setErrors(errorsOf(err));
      setBusy(false);
    }
  };

  return (
    <Stack component="form" onSubmit={submit} spacing={1.5} noValidate aria-label={translate('app.setup.first_role')} data-testid="setup-first-role">
      <Alert severity="info">{translate('app.setup.no_roles')}</Alert>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          size="small"
          select
          label={translate('app.setup.role_preset')}
          value={preset}
          onChange={(e) => {
            setPreset(e.target.value as RolePreset);
            setName(null);
          }}
          helperText={translate(`app.setup.role_presets.${preset}.rights`)}
          sx={{ flex: { sm: '1 1 200px' } }}
        >
          {ROLE_PRESET_KEYS.map((key) => (
            <MenuItem key={key} value={key}>
              {translate(`app.setup.role_presets.${key}.name`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label={translate('app.setup.role_name')}
          value={roleName}
          onChange={(e) => setName(e.target.value)}
          error={Boolean(fieldError(errors, 'name'))}
          helperText={fieldError(errors, 'name')}
          sx={{ flex: { sm: '1 1 200px' } }}
        />
      </Stack>
      <ErrorAlert errors={errors} shown={['name']} />
      <Stack direction="row" useFlexGap spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Button type="submit" size="small" variant="outlined" disabled={busy}>
          {translate('app.setup.create_role')}
        </Button>
        <Button component={RouterLink} to="/Roles-departments" size="small">
          {translate('app.setup.roles_matrix')}
        </Button>
      </Stack>
    </Stack>
  );
}
