import { useState, type FormEvent, type ReactNode } from 'react';
import { Box, Button, Card, CardContent, CardHeader, Chip, CircularProgress, Divider, Stack, TextField, Typography } from '@mui/material';
import { useAuthProvider, useNotify, useTranslate } from 'react-admin';
import { usePageHeader } from '../../layout/navigation';
import { useCurrentUser } from '../../useCurrentUser';
import { apiFetch } from '../../dataProvider/http';
import { CodeDialog, ErrorAlert, errorsOf, fieldError, type SettingsErrors } from './CodeDialog';
import { SupportCard } from './SupportCard';

type Dialog = 'phone' | 'email' | 'tf-on-email' | 'tf-on-phone' | 'tf-off' | null;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' }, minHeight: 40 }}>
      <Typography sx={{ width: 220, flexShrink: 0, color: 'text.secondary' }}>{label}</Typography>
      <Box sx={{ flex: 1 }}>{children}</Box>
    </Stack>
  );
}

/** /User: the signed-in user's personal data and settings (name, phone, e-mail, password, two-factor sign-in). */
export default function UserPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const authProvider = useAuthProvider() as { refreshUser?: () => Promise<unknown> } | undefined;
  const { user, refetch } = useCurrentUser();
  const [dialog, setDialog] = useState<Dialog>(null);
  usePageHeader(translate('app.user.title'));

  const reload = async () => {
    await authProvider?.refreshUser?.();
    refetch();
  };

  if (!user) return null;
  const tfLabel = translate(user.two_factor ? `app.user.two_factor_${user.two_factor}` : 'app.user.two_factor_off');
  const tfChannel = user.two_factor ?? 'email';
  // Without an SMS gateway no code can reach a phone: its confirmation and SMS sign-in are not offered.
  const smsAvailable = user.sms_available === true;

  return (
    <Stack spacing={2} sx={{ maxWidth: 796 }}>
      <Card>
        <CardHeader title={translate('app.settings.profile')} slotProps={{ title: { variant: 'h6' } }} />
        <CardContent>
          <Stack divider={<Divider flexItem />} spacing={1.5}>
            <NameForm key={user.name} name={user.name} onSaved={reload} />
            <Row label={translate('app.user.email')}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography sx={{ flex: 1 }}>{user.email}</Typography>
                <Button onClick={() => setDialog('email')}>{translate('app.settings.change')}</Button>
              </Stack>
            </Row>
            <Row label={translate('app.user.phone')}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Box sx={{ flex: 1 }}>
                  <Typography>{user.phone ?? translate('app.user.not_set')}</Typography>
                  {!smsAvailable && (
                    <Typography variant="caption" color="text.secondary" data-testid="sms-unavailable">
                      {translate('app.settings.sms_unavailable')}
                    </Typography>
                  )}
                </Box>
                {smsAvailable && <Button onClick={() => setDialog('phone')}>{translate(user.phone ? 'app.settings.change' : 'app.settings.add')}</Button>}
              </Stack>
            </Row>
            <Row label={translate('app.user.role')}>
              <Typography>{translate(user.is_admin ? 'app.user.admin' : 'app.user.staff')}</Typography>
            </Row>
            <Row label={translate('app.user.complexes')}>
              {user.is_admin ? (
                <Typography>{translate('app.user.all_complexes')}</Typography>
              ) : (
                <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
                  {user.complexes.map((c) => (
                    <Chip key={c.id} label={c.name} size="small" />
                  ))}
                </Stack>
              )}
            </Row>
          </Stack>
        </CardContent>
      </Card>

      <Card>
        <CardHeader title={translate('app.user.two_factor')} subheader={translate('app.settings.two_factor_hint')} slotProps={{ title: { variant: 'h6' } }} />
        <CardContent>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
            <Typography sx={{ flex: 1 }} data-testid="two-factor-state">
              {tfLabel}
            </Typography>
            {user.two_factor ? (
              <Button color="warning" onClick={() => setDialog('tf-off')}>
                {translate('app.settings.two_factor_off')}
              </Button>
            ) : (
              <>
                <Button variant="outlined" onClick={() => setDialog('tf-on-email')}>
                  {translate('app.settings.two_factor_on_email')}
                </Button>
                {smsAvailable && (
                  <Button
                    variant="outlined"
                    onClick={() => setDialog('tf-on-phone')}
                    disabled={!user.phone}
                    title={user.phone ? undefined : translate('app.settings.phone_first')}
                  >
                    {translate('app.settings.two_factor_on_phone')}
                  </Button>
                )}
              </>
            )}
          </Stack>
        </CardContent>
      </Card>

      <PasswordCard onSaved={(message) => notify(message, { type: 'success' })} />
      <SupportCard />

      <CodeDialog
        open={dialog === 'email'}
        onClose={() => setDialog(null)}
        title={translate('app.settings.email_title')}
        hint={translate('app.settings.email_hint')}
        target={{ field: 'email', label: translate('app.settings.new_email'), type: 'email' }}
        request={{ path: '/setting/request-code/email', body: (v) => ({ email: v.target, current_password: v.password }) }}
        confirm={{ path: '/setting/change/email', body: (v) => ({ email: v.target, code: v.code }) }}
        onDone={reload}
      />
      <CodeDialog
        open={dialog === 'phone'}
        onClose={() => setDialog(null)}
        title={translate('app.settings.phone_title')}
        hint={translate('app.settings.phone_hint')}
        target={{ field: 'phone', label: translate('app.settings.new_phone'), type: 'tel', placeholder: '+380 67 123 45 67' }}
        request={{ path: '/setting/request-code/phone', body: (v) => ({ phone: v.target, current_password: v.password }) }}
        confirm={{ path: '/setting/change/phone', body: (v) => ({ phone: v.target, code: v.code }) }}
        onDone={reload}
      />
      {(['email', 'phone'] as const).map((channel) => (
        <CodeDialog
          key={channel}
          open={dialog === `tf-on-${channel}`}
          onClose={() => setDialog(null)}
          title={translate(`app.settings.two_factor_on_${channel}`)}
          hint={translate(`app.settings.two_factor_on_hint_${channel}`)}
          request={{ path: `/setting/enable-two-factor/${channel}`, body: (v) => ({ enable: true, current_password: v.password }) }}
          confirm={{ path: `/setting/enable-two-factor/${channel}`, body: (v) => ({ enable: true, code: v.code }) }}
          onDone={reload}
        />
      ))}
      <CodeDialog
        open={dialog === 'tf-off'}
        onClose={() => setDialog(null)}
        title={translate('app.settings.two_factor_off')}
        hint={translate(tfChannel === 'phone' && !smsAvailable ? 'app.settings.two_factor_off_hint_email' : 'app.settings.two_factor_off_hint')}
        request={{ path: `/setting/enable-two-factor/${tfChannel}`, body: (v) => ({ enable: false, current_password: v.password }) }}
        confirm={{ path: `/setting/enable-two-factor/${tfChannel}`, body: (v) => ({ enable: false, code: v.code }) }}
        onDone={reload}
      />
    </Stack>
  );
}

function NameForm({ name, onSaved }: { name: string; onSaved: () => Promise<void> }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [value, setValue] = useState(name);
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const res = await apiFetch<{ message: string }>('/user', { method: 'POST', body: { name: value } });
      setErrors({});
      notify(res.message, { type: 'success' });
      await onSaved();
    } catch (err) {
      setErrors(errorsOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Row label={translate('app.user.name')}>
      <Stack component="form" onSubmit={submit} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          size="small"
          name="name"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          error={Boolean(fieldError(errors, 'name'))}
          helperText={fieldError(errors, 'name')}
          slotProps={{ htmlInput: { 'aria-label': translate('app.user.name') } }}
          sx={{ flex: 1 }}
        />
        <Button type="submit" disabled={busy || value.trim() === name}>
          {translate('app.actions.save')}
        </Button>
      </Stack>
    </Row>
  );
}

function PasswordCard({ onSaved }: { onSaved: (message: string) => void }) {
  const translate = useTranslate();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const res = await apiFetch<{ message: string }>('/setting/change/password', {
        method: 'POST',
        body: { current_password: current, password, password_confirmation: confirmation },
      });
      setErrors({});
      setCurrent('');
      setPassword('');
      setConfirmation('');
      onSaved(res.message);
    } catch (err) {
      setErrors(errorsOf(err));
    } finally {
      setBusy(false);
    }
  };

  const field = (name: string, label: string, value: string, set: (v: string) => void, autoComplete: string) => (
    <TextField
      label={label}
      type="password"
      name={name}
      autoComplete={autoComplete}
      value={value}
      onChange={(e) => set(e.target.value)}
      error={Boolean(fieldError(errors, name))}
      helperText={fieldError(errors, name)}
    />
  );

  return (
    <Card>
      <CardHeader title={translate('app.settings.password_title')} subheader={translate('app.auth.reset_hint')} slotProps={{ title: { variant: 'h6' } }} />
      <CardContent>
        <Stack component="form" onSubmit={submit} spacing={2} sx={{ maxWidth: 437 }} noValidate>
          {field('current_password', translate('app.settings.current_password'), current, setCurrent, 'current-password')}
          {field('password', translate('app.auth.new_password'), password, setPassword, 'new-password')}
          {field('password_confirmation', translate('app.auth.password_confirmation'), confirmation, setConfirmation, 'new-password')}
          <ErrorAlert errors={errors} shown={['current_password', 'password', 'password_confirmation']} />
          <Box>
            <Button
              type="submit"
              variant="contained"
              disabled={busy || !current || !password}
              startIcon={busy ? <CircularProgress size={16} color="inherit" /> : null}
            >
              {translate('app.settings.password_submit')}
            </Button>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}
