import { useState, type FormEvent } from 'react';
import { Link as RouterLink, Navigate, useLocation } from 'react-router-dom';
import { Box, Button, CircularProgress, Link } from '@mui/material';
import { useLogin, useNotify, useTranslate } from 'react-admin';
import { readToken } from '../authStorage';
import { AuthLayout } from '../layout/AuthLayout';
import { AuthField } from './AuthField';
import { lastPath } from '../lastLocation';

type FieldErrors = Partial<Record<'email' | 'password', string>>;

export default function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const notify = useNotify();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  // A signed-in user who opens /login goes back to where they were.
  if (readToken() && !busy) {
    const from = (location.state as { nextPathname?: string } | null)?.nextPathname;
    return <Navigate to={from && !/^\/login/i.test(from) ? from : lastPath()} replace />;
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const local: FieldErrors = {};
    if (!email.trim()) local.email = translate('app.auth.required');
    if (!password) local.password = translate('app.auth.required');
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      await login({ email: email.trim(), password });
      setErrors({});
    } catch (err) {
      const body = (err as { body?: { errors?: FieldErrors } }).body;
      if (body?.errors && Object.keys(body.errors).length) setErrors(body.errors);
      else notify((err as Error).message || 'app.errors.server', { type: 'error' });
      setBusy(false);
    }
  };

  return (
    <AuthLayout title={translate('app.auth.title')}>
      <Box component="form" onSubmit={submit} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <AuthField
          label={translate('app.auth.email')}
          type="email"
          name="email"
          autoComplete="username"
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
        />
        <AuthField
          label={translate('app.auth.password')}
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
        />
        <Button type="submit" variant="contained" size="large" disabled={busy} startIcon={busy ? <CircularProgress size={18} color="inherit" /> : null}>
          {translate('app.auth.sign_in')}
        </Button>
        <Link component={RouterLink} to="/ForgetPassword" sx={{ alignSelf: 'center' }}>
          {translate('app.auth.forgot_link')}
        </Link>
      </Box>
    </AuthLayout>
  );
}
