import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, Navigate, useLocation } from 'react-router-dom';
import { Box, Button, CircularProgress, Link, Typography } from '@mui/material';
import { useLogin, useNotify, useTranslate } from 'react-admin';
import { readToken } from '../authStorage';
import { TwoFactorRequired, type TwoFactorStep } from '../authProvider';
import { apiFetch } from '../dataProvider/http';
import { AuthLayout } from '../layout/AuthLayout';
import { AuthField } from './AuthField';
import { lastPath } from '../lastLocation';

type FieldErrors = Partial<Record<'email' | 'password' | 'code', string>>;

/** Seconds left until `until` (ms timestamp), ticking every second; 0 when past. */
function useCountdown(until: number) {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    const update = () => setLeft(Math.max(0, Math.ceil((until - Date.now()) / 1000)));
    const first = setTimeout(update, 0);
    const timer = setInterval(update, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [until]);
  return left;
}

const firstErrors = (err: unknown): FieldErrors | undefined => {
  const errors = (err as { body?: { errors?: Record<string, string[] | string> } }).body?.errors;
  if (!errors || !Object.keys(errors).length) return undefined;
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
};

export default function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const notify = useNotify();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState<(TwoFactorStep & { at: number }) | null>(null);
  const [code, setCode] = useState('');
  const resendIn = useCountdown(step ? step.at + step.resend_after * 1000 : 0);

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
      setBusy(false);
      if (err instanceof TwoFactorRequired) {
        setStep({ ...err.step, at: Date.now() });
        setCode('');
        return;
      }
      const fieldErrors = firstErrors(err);
      if (fieldErrors) setErrors(fieldErrors);
      else notify((err as Error).message || 'app.errors.server', { type: 'error' });
    }
  };

  const submitCode = async (e: FormEvent) => {
    e.preventDefault();
    if (!step) return;
    if (!/^\d{6}$/.test(code.trim())) {
      setErrors({ code: translate('app.auth.code_format') });
      return;
    }
    setBusy(true);
    try {
      await login({ challenge: step.challenge, code: code.trim() });
      setErrors({});
    } catch (err) {
      setBusy(false);
      const fieldErrors = firstErrors(err);
      if (fieldErrors) setErrors(fieldErrors);
      else notify((err as Error).message || 'app.errors.server', { type: 'error' });
    }
  };

  const resend = async () => {
    if (!step) return;
    try {
      const next = await apiFetch<TwoFactorStep>('/login/code/resend', { method: 'POST', body: { challenge: step.challenge } });
      setStep({ ...next, at: Date.now() });
      setErrors({});
      notify(next.message, { type: 'info' });
    } catch (err) {
      const fieldErrors = firstErrors(err);
      if (fieldErrors) setErrors(fieldErrors);
      else notify((err as Error).message || 'app.errors.server', { type: 'error' });
    }
  };

  if (step) {
    return (
      <AuthLayout title={translate('app.auth.code_title')}>
        <Box component="form" onSubmit={submitCode} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography color="text.secondary">
            {translate(step.two_factor === 'phone' ? 'app.auth.code_sent_sms' : 'app.auth.code_sent_email', { to: step.sent_to })}
          </Typography>
          <AuthField
            label={translate('app.auth.code')}
            name="code"
            autoComplete="one-time-code"
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
            error={errors.code}
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
          />
          <Button type="submit" variant="contained" size="large" disabled={busy} startIcon={busy ? <CircularProgress size={18} color="inherit" /> : null}>
            {translate('app.auth.code_submit')}
          </Button>
          <Button onClick={resend} disabled={resendIn > 0}>
            {resendIn > 0 ? translate('app.auth.code_resend_in', { seconds: resendIn }) : translate('app.auth.code_resend')}
          </Button>
          <Link
            component="button"
            type="button"
            onClick={() => {
              setStep(null);
              setErrors({});
            }}
            sx={{ alignSelf: 'center' }}
          >
            {translate('app.auth.code_back')}
          </Link>
        </Box>
      </AuthLayout>
    );
  }

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
