import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslate } from 'react-admin';
import { ErrorPage } from '../layout/ErrorPage';

/**
 * A list or a record that could not be loaded: the reason in words (the API's Ukrainian message,
 * or the translation of a message key such as `app.errors.network`) and a way to try again.
 */
export function LoadError({ error, onRetry, sx }: { error: unknown; onRetry?: () => void; sx?: object }) {
  const translate = useTranslate();
  // A record that does not exist (or lies outside the user's complexes) is the 404 page.
  if ((error as { status?: unknown } | null)?.status === 404) return <ErrorPage status={404} />;
  const raw = (error as { message?: unknown } | null)?.message ?? error;
  const message = typeof raw === 'string' && raw ? translate(raw, { _: raw }) : translate('app.errors.server');
  return (
    <Alert
      severity="error"
      sx={sx}
      action={
        onRetry ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            {translate('app.errors.retry')}
          </Button>
        ) : undefined
      }
    >
      {message}
    </Alert>
  );
}
