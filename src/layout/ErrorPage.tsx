import { Component, useEffect, type ErrorInfo, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import { LinkBase, useBasename, useInRouterContext, useTranslate } from 'react-admin';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import { isChunkLoadError, isOffline, tryChunkReload } from './chunkReload';

export interface ErrorPageProps {
  /** HTTP-like status; 404 shows "page not found". Default 500. */
  status?: number;
  /** Detail shown after the status (translated when it is a message key). */
  message?: string;
}

/** Link to the home page: an SPA link inside a router, a plain <a> outside. */
const HomeButton = ({ label }: { label: string }) => {
  const inRouter = useInRouterContext();
  const basename = useBasename();
  if (inRouter) {
    return (
      <Button variant="contained" component={LinkBase} to={`${basename}/`}>
        {label}
      </Button>
    );
  }
  return (
    <Button variant="contained" href="/">
      {label}
    </Button>
  );
};

/** Translated error page (404 or any other status). */
export const ErrorPage = ({ status = 500, message = '' }: ErrorPageProps) => {
  const translate = useTranslate();
  const notFound = status === 404;
  const detail = message ? translate(message, { _: message }) : '';
  const title = notFound
    ? translate('app.errors.page_not_found', { _: 'Сторінку не знайдено' })
    : translate('app.errors.page_error', {
        _: 'Сталася помилка — %{status} %{message}',
        status,
        message: detail,
      }).trim();
  const Icon = notFound ? SearchOffIcon : ErrorOutlineIcon;

  return (
    <Box
      data-status={status}
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        gap: 3,
        minHeight: '50vh',
        p: 3,
      }}
    >
      <Icon sx={{ fontSize: 64, color: 'text.disabled' }} />
      <Typography component="h1" variant="h5" sx={{ overflowWrap: 'anywhere' }}>
        {title}
      </Typography>
      <HomeButton label={translate('app.errors.go_home', { _: 'На головну' })} />
    </Box>
  );
};

export const ERROR_PAGE_FALLBACK_TEXT = 'Під час показу сторінки помилки сталася помилка';

interface BoundaryState {
  failed: boolean;
}

/**
 * Error boundary around the error page itself: when rendering the page
 * throws (broken i18n, theme…), show plain markup without any context.
 */
export class ErrorPageBoundary extends Component<{ children?: ReactNode }, BoundaryState> {
  state: BoundaryState = { failed: false };

  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Error page failed to render', error, info.componentStack);
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" style={{ padding: 24, fontFamily: 'Roboto, Arial, sans-serif', textAlign: 'center' }}>
        <p>{ERROR_PAGE_FALLBACK_TEXT}</p>
        <a href="/">На головну</a>
      </div>
    );
  }
}

/** What react-admin passes to `<Admin error={...}>` (plus resetErrorBoundary, if any). */
export interface RouteErrorPageProps {
  error?: unknown;
  errorInfo?: ErrorInfo;
  resetErrorBoundary?: (...args: unknown[]) => void;
  title?: unknown;
}

const statusOf = (error: unknown): number => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 100 && status <= 599 ? status : 500;
};

const messageOf = (error: unknown): string => {
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : '';
};

/**
 * For `<Admin error={RouteErrorPage}>`. react-admin resets its error
 * boundary when the location changes, so "Go to Home" recovers the app.
 * A failed lazy chunk (stale deploy) triggers one page reload.
 */
export const RouteErrorPage = ({ error }: RouteErrorPageProps) => {
  const chunk = isChunkLoadError(error);
  useEffect(() => {
    if (chunk) tryChunkReload();
  }, [chunk]);
  if (chunk && isOffline()) return <OfflinePage />;
  return (
    <ErrorPageBoundary>
      <ErrorPage status={statusOf(error)} message={messageOf(error)} />
    </ErrorPageBoundary>
  );
};

/**
 * A screen whose code could not be loaded because the browser is offline: the app stays, says
 * why, and loads the screen again by itself as soon as the connection is back.
 */
export const OfflinePage = () => {
  const translate = useTranslate();
  useEffect(() => {
    const back = () => window.location.reload();
    window.addEventListener('online', back);
    return () => window.removeEventListener('online', back);
  }, []);
  return (
    <Box
      role="alert"
      data-status="offline"
      sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', textAlign: 'center', gap: 3, minHeight: '50vh', p: 3 }}
    >
      <CloudOffIcon sx={{ fontSize: 64, color: 'text.disabled' }} />
      <Typography component="h1" variant="h5">
        {translate('app.errors.network', { _: "Немає зв'язку з сервером. Перевірте з'єднання та спробуйте ще раз." })}
      </Typography>
      <Button variant="contained" onClick={() => window.location.reload()}>
        {translate('app.errors.retry', { _: 'Спробувати ще раз' })}
      </Button>
    </Box>
  );
};

/** For `<Admin catchAll={NotFoundPage}>`. */
export const NotFoundPage = () => (
  <ErrorPageBoundary>
    <ErrorPage status={404} />
  </ErrorPageBoundary>
);
