import { useState, type FormEvent } from 'react';
import { Link as RouterLink, Navigate, useSearchParams } from 'react-router-dom';
import { Alert, Box, Button, Link, Typography } from '@mui/material';
import { useLogin, useNotify, useTranslate } from 'react-admin';
import { readToken } from '../authStorage';
import { apiFetch } from '../dataProvider/http';
import { AuthLayout } from '../layout/AuthLayout';
import { AuthField } from './AuthField';
import { useCurrentUser } from '../useCurrentUser';

type Errors = Partial<Record<'password' | 'password_confirmation' | 'token' | 'email', string>>;

/**
 * /ResetPassword and /resetpassword are one page (paths match case-insensitively):
 * with ?token&email from the e-mailed link it resets a forgotten password; for a signed-in
 * user whose account carries reset_token it is the forced change.
 */
export default function ResetPasswordPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const login = useLogin();
  const [params] = useSearchParams();
  const signedIn = Boolean(readToken());
  const { user, isPending } = useCurrentUser();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const linkToken = params.get('token');
  const forced = !linkToken && signedIn && user?.reset_token ? user : undefined;
  const token = linkToken ?? forced?.reset_token ?? null;
  const email = params.get('email') ?? forced?.email ?? '';

  if (!linkToken && signedIn && isPending) return null;
  if (!linkToken && signedIn && user && !user.reset_token && !done) return <Navigate to="/" replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const local: Errors = {};
    if (password.length < 8) local.password = translate('app.auth.password_too_short');
    if (password !== confirmation) local.password_confirmation = translate('app.auth.passwords_differ');
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const res = await apiFetch<{ message: string }>('/reset_password', {
        method: 'POST',
        body: { token, email, password, password_confirmation: confirmation },
      });
      setDone(true);
      notify(translate('app.auth.reset_done'), { type: 'success', messageArgs: { text: res.message } });
      // The reset ends every session; a forced change signs the user straight back in.
      if (forced) await login({ email, password });
    } catch (err) {
      const body = (err as { body?: { errors?: Errors } }).body;
      if (body?.errors && Object.keys(body.errors).length) setErrors(body.errors);
      else notify((err as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  if (!token) {
    return (
      <AuthLayout title={translate('app.auth.reset_title')}>
        <Alert severity="warning">{translate('app.auth.reset_invalid')}</Alert>
        <Link component={RouterLink} to="/ForgetPassword" sx={{ display: 'block', textAlign: 'center', mt: 2 }}>
          {translate('app.auth.forgot_submit')}
        </Link>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={translate('app.auth.reset_title')}>
      {done && !forced ? (
        <>
          <Alert severity="success">{translate('app.auth.reset_done')}</Alert>
          <Button component={RouterLink} to="/login" variant="contained" fullWidth sx={{ mt: 2 }}>
            {translate('app.auth.sign_in')}
          </Button>
        </>
      ) : (
        <Box component="form" onSubmit={submit} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography variant="body2" color="text.secondary">
            {forced ? translate('app.auth.forced_hint') : translate('app.auth.reset_hint')}
          </Typography>
          {(errors.token || errors.email) && <Alert severity="error">{errors.token ?? errors.email}</Alert>}
          <AuthField label={translate('app.auth.email')} value={email} disabled />
          <AuthField
            label={translate('app.auth.new_password')}
            type="password"
            name="password"
            autoComplete="new-password"
            autoFocus
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={errors.password}
          />
          <AuthField
            label={translate('app.auth.password_confirmation')}
            type="password"
            name="password_confirmation"
            autoComplete="new-password"
            value={confirmation}
            onChange={(e) => setConfirmation(e.target.value)}
            error={errors.password_confirmation}
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {translate('app.auth.reset_submit')}
          </Button>
        </Box>
      )}
      {!forced && (
        <Link component={RouterLink} to="/login" sx={{ display: 'block', textAlign: 'center', mt: 2 }}>
          {translate('app.auth.back_to_login')}
        </Link>
      )}
    </AuthLayout>
  );
}
