import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button, Link, Typography } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { apiFetch } from '../dataProvider/http';
import { AuthLayout } from '../layout/AuthLayout';
import { AuthField } from './AuthField';

export default function ForgetPasswordPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) return setError(translate('app.auth.required'));
    setBusy(true);
    try {
      const res = await apiFetch<{ message: string }>('/forgot_password', { method: 'POST', body: { email: email.trim() } });
      setError(undefined);
      setSent(res.message);
    } catch (err) {
      const body = (err as { body?: { errors?: Record<string, string> } }).body;
      if (body?.errors?.email) setError(body.errors.email);
      else notify((err as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title={translate('app.auth.forgot_title')}>
      {sent ? (
        <Alert severity="success" sx={{ mb: 2 }}>
          {sent}
        </Alert>
      ) : (
        <Box component="form" onSubmit={submit} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography variant="body2" color="text.secondary">
            {translate('app.auth.forgot_hint')}
          </Typography>
          <AuthField
            label={translate('app.auth.email')}
            type="email"
            name="email"
            autoComplete="username"
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={error}
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {translate('app.auth.forgot_submit')}
          </Button>
        </Box>
      )}
      <Link component={RouterLink} to="/login" sx={{ display: 'block', textAlign: 'center', mt: 2 }}>
        {translate('app.auth.back_to_login')}
      </Link>
    </AuthLayout>
  );
}
