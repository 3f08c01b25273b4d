import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, CircularProgress, DialogActions, Stack, TextField, Typography } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { FormDialog } from '../../components/FormDialog';
import { apiFetch } from '../../dataProvider/http';

/**
 * What a settings call answered on failure: the SPA keeps the whole body as the errors. The HTTP
 * layer has already flattened the API's field → [messages] to field → message; both are read.
 */
export interface SettingsErrors {
  message?: string;
  errors?: Record<string, string | string[]>;
}

const firstMessage = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export const errorsOf = (err: unknown): SettingsErrors => {
  const body = (err as { body?: SettingsErrors }).body;
  return body && typeof body === 'object' ? body : { message: (err as Error).message };
};

export const fieldError = (errors: SettingsErrors, field: string) => firstMessage(errors.errors?.[field]);

/** Errors under fields the form does not show go into the alert, so nothing is lost. */
export function ErrorAlert({ errors, shown }: { errors: SettingsErrors; shown: string[] }) {
  const translate = useTranslate();
  const all = Object.entries(errors.errors ?? {});
  const other = all.filter(([k]) => !shown.includes(k));
  // The message repeats a field's error: when every error stands under its field, no alert.
  if ((!errors.message || all.length > 0) && other.length === 0) return null;
  return <Alert severity="error">{other.length ? other.map(([, v]) => firstMessage(v)).join(' ') : translate(errors.message ?? 'app.errors.server')}</Alert>;
}

export interface CodeDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  /** What the first step asks besides the current password (e.g. the new phone), if anything. */
  target?: { field: 'phone' | 'email'; label: string; type: string; placeholder?: string };
  hint?: ReactNode;
  /** The first call: sends the code. */
  request: { path: string; body: (v: { target: string; password: string }) => Record<string, unknown> };
  /** The second call: confirms with the code. */
  confirm: { path: string; body: (v: { target: string; code: string }) => Record<string, unknown> };
  onDone: (message: string) => void;
}

/**
 * Two steps every confirmed change takes: the current password (and the new address) send a
 * code; the code makes the change. Resending goes back through the first call.
 */
export function CodeDialog({ open, onClose, title, target, hint, request, confirm, onDone }: CodeDialogProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const [value, setValue] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [busy, setBusy] = useState(false);

  const close = () => {
    setValue('');
    setPassword('');
    setCode('');
    setSent(null);
    setErrors({});
    onClose();
  };

  const sendCode = async (e?: FormEvent) => {
    e?.preventDefault();
    setBusy(true);
    try {
      const res = await apiFetch<{ message: string }>(request.path, { method: 'POST', body: request.body({ target: value.trim(), password }) });
      setSent(res.message);
      setErrors({});
      setCode('');
    } catch (err) {
      setErrors(errorsOf(err));
    } finally {
      setBusy(false);
    }
  };

  const submitCode = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const res = await apiFetch<{ message: string }>(confirm.path, { method: 'POST', body: confirm.body({ target: value.trim(), code: code.trim() }) });
      setErrors({});
      notify(res.message, { type: 'success' });
      onDone(res.message);
      close();
    } catch (err) {
      setErrors(errorsOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog open={open} onClose={close} title={title} size="small">
      {!sent ? (
        <Stack component="form" onSubmit={sendCode} spacing={2} noValidate>
          {hint && <Typography color="text.secondary">{hint}</Typography>}
          {target && (
            <TextField
              label={target.label}
              type={target.type}
              name={target.field}
              placeholder={target.placeholder}
              value={value}
              autoFocus
              onChange={(e) => setValue(e.target.value)}
              error={Boolean(fieldError(errors, target.field))}
              helperText={fieldError(errors, target.field)}
            />
          )}
          <TextField
            label={translate('app.settings.current_password')}
            type="password"
            name="current_password"
            autoComplete="current-password"
            autoFocus={!target}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={Boolean(fieldError(errors, 'current_password'))}
            helperText={fieldError(errors, 'current_password')}
          />
          <ErrorAlert errors={errors} shown={[target?.field ?? '', 'current_password']} />
          <DialogActions sx={{ px: 0 }}>
            <Button onClick={close}>{translate('app.actions.cancel')}</Button>
            <Button type="submit" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={16} color="inherit" /> : null}>
              {translate('app.settings.send_code')}
            </Button>
          </DialogActions>
        </Stack>
      ) : (
        <Stack component="form" onSubmit={submitCode} spacing={2} noValidate>
          <Alert severity="info">{sent}</Alert>
          <TextField
            label={translate('app.auth.code')}
            name="code"
            autoComplete="one-time-code"
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
            error={Boolean(fieldError(errors, 'code'))}
            helperText={fieldError(errors, 'code')}
          />
          <ErrorAlert errors={errors} shown={['code']} />
          <DialogActions sx={{ px: 0 }}>
            <Button onClick={() => void sendCode()} disabled={busy}>
              {translate('app.auth.code_resend')}
            </Button>
            <Button
              type="submit"
              variant="contained"
              disabled={busy || code.length !== 6}
              startIcon={busy ? <CircularProgress size={16} color="inherit" /> : null}
            >
              {translate('app.auth.code_submit')}
            </Button>
          </DialogActions>
        </Stack>
      )}
    </FormDialog>
  );
}
