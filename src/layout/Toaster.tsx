import { isValidElement, useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { amber, green, red } from '@mui/material/colors';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import CloseIcon from '@mui/icons-material/Close';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import {
  CloseNotificationContext,
  useNotificationContext,
  useNotify,
  useTakeUndoableMutation,
  useTranslate,
  type NotificationPayload,
  type NotificationType,
  type UndoableMutation,
} from 'react-admin';

/** Default time a toast stays on screen. */
export const TOAST_DURATION_MS = 5000;
/** Width of a toast, px. */
export const TOAST_WIDTH = 328;

export type ToastKind = 'success' | 'error' | 'warning';

/**
 * react-admin's 'info' (used by it for "Element updated/created/deleted")
 * is shown as a success toast.
 */
export const toastKindOf = (type: NotificationType | undefined): ToastKind => (type === 'error' ? 'error' : type === 'warning' ? 'warning' : 'success');

const KIND_COLOR: Record<ToastKind, string> = {
  success: green[700],
  error: red[700],
  warning: amber[700],
};

const KIND_ICON: Record<ToastKind, typeof CheckCircleOutlineIcon> = {
  success: CheckCircleOutlineIcon,
  error: ErrorOutlineIcon,
  warning: WarningAmberIcon,
};

/** Stable numeric key per notification object (for React keys). */
const toastIds = new WeakMap<NotificationPayload, number>();
let nextToastId = 1;
const toastIdOf = (notification: NotificationPayload): number => {
  let id = toastIds.get(notification);
  if (id === undefined) {
    id = nextToastId++;
    toastIds.set(notification, id);
  }
  return id;
};

/**
 * Replacement for react-admin's `<Notification>`: `<Admin notification={Toaster}>`.
 *
 * Shows every notification of react-admin's queue (`useNotificationContext()`)
 * as a toast stacked at the top right; a toast leaves the queue when it hides
 * or is closed. (react-admin clears the queue on login, which clears toasts.)
 *
 * Undoable notifications (react-admin's default mutation mode for edit and
 * delete) get an "Undo" button. Each is paired with the next pending
 * undoable mutation; the mutation is committed when the toast hides or is
 * closed and rolled back on "Undo".
 */
export const Toaster = () => {
  const { notifications, setNotifications } = useNotificationContext();
  const takeMutation = useTakeUndoableMutation();
  const translate = useTranslate();
  /** Undoable notifications already paired with their mutation (if any). */
  const paired = useRef(new Map<NotificationPayload, UndoableMutation | undefined>());

  useEffect(() => {
    const map = paired.current;
    // Notifications removed by someone else (e.g. resetNotifications on
    // login) must still commit their pending mutation.
    for (const [notification, mutation] of map) {
      if (!notifications.includes(notification)) {
        map.delete(notification);
        mutation?.({ isUndo: false });
      }
    }
    const unpaired = notifications.filter((n) => n.notificationOptions?.undoable && !map.has(n));
    if (unpaired.length === 0) return;
    // takeMutation() is bound to the current queue: take one per effect run
    // (the queue update re-renders us and the effect runs again).
    const mutation = takeMutation() ?? undefined;
    if (mutation) map.set(unpaired[0], mutation);
    else for (const n of unpaired) map.set(n, undefined);
  }, [notifications, takeMutation]);

  const hasPendingUndo = notifications.some((n) => n.notificationOptions?.undoable);
  useEffect(() => {
    if (!hasPendingUndo) return;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => window.removeEventListener('beforeunload', beforeUnload);
  }, [hasPendingUndo]);

  const dismiss = useCallback(
    (notification: NotificationPayload, isUndo: boolean) => {
      const map = paired.current;
      if (map.has(notification)) {
        const mutation = map.get(notification);
        map.delete(notification);
        mutation?.({ isUndo });
      }
      setNotifications((current) => current.filter((n) => n !== notification));
    },
    [setNotifications],
  );

  if (notifications.length === 0) return null;

  return (
    <Box
      role="region"
      aria-label={translate('app.toaster.region', { _: 'Сповіщення' })}
      sx={{
        position: 'fixed',
        top: 16,
        right: 16,
        zIndex: (theme) => theme.zIndex.snackbar,
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
        maxWidth: 'calc(100vw - 32px)',
        pointerEvents: 'none',
      }}
    >
      {notifications.map((notification) => (
        <Toast key={toastIdOf(notification)} notification={notification} onDismiss={dismiss} />
      ))}
    </Box>
  );
};

interface ToastProps {
  notification: NotificationPayload;
  onDismiss: (notification: NotificationPayload, isUndo: boolean) => void;
}

const Toast = ({ notification, onDismiss }: ToastProps) => {
  const translate = useTranslate();
  const { message, type, notificationOptions = {} } = notification;
  const { autoHideDuration, messageArgs, undoable } = notificationOptions;
  const kind = toastKindOf(type);
  const Icon = KIND_ICON[kind];
  const color = KIND_COLOR[kind];

  // undefined → default; null → stays until closed (react-admin semantics).
  const duration: number | null = autoHideDuration === undefined ? TOAST_DURATION_MS : autoHideDuration;

  const close = useCallback(() => onDismiss(notification, false), [onDismiss, notification]);
  const undo = useCallback(() => onDismiss(notification, true), [onDismiss, notification]);

  useEffect(() => {
    if (duration === null) return;
    const timer = setTimeout(close, duration);
    return () => clearTimeout(timer);
  }, [duration, close]);

  let title: ReactNode = null;
  if (typeof message === 'string') {
    title = translate(message, { _: message, ...messageArgs });
  } else if (isValidElement(message)) {
    title = message;
  }
  const rawText: unknown = messageArgs?.text;
  const text = typeof rawText === 'string' && rawText !== '' ? translate(rawText, { ...messageArgs, _: rawText }) : null;

  return (
    <CloseNotificationContext.Provider value={close}>
      <Paper
        elevation={6}
        role={kind === 'error' ? 'alert' : 'status'}
        data-kind={kind}
        className={`app-toast app-toast-${kind}`}
        sx={{
          pointerEvents: 'auto',
          width: TOAST_WIDTH,
          maxWidth: '100%',
          boxSizing: 'border-box',
          display: 'flex',
          alignItems: 'flex-start',
          gap: 1.5,
          py: 1.5,
          pl: 2,
          pr: 1,
          borderLeft: `4px solid ${color}`,
          animation: 'app-toast-in 150ms ease-out',
          '@keyframes app-toast-in': {
            from: { opacity: 0, transform: 'translateY(-8px)' },
            to: { opacity: 1, transform: 'none' },
          },
        }}
      >
        <Icon sx={{ color, mt: '1px', flexShrink: 0 }} fontSize="small" />
        <Box sx={{ flexGrow: 1, minWidth: 0, pt: '1px' }}>
          <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere', whiteSpace: 'pre-line' }} className="app-toast-title">
            {title}
          </Typography>
          {text && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere', whiteSpace: 'pre-line' }} className="app-toast-text">
              {text}
            </Typography>
          )}
          {undoable && (
            <Button size="small" onClick={undo} sx={{ mt: 0.5, ml: -1 }}>
              {translate('app.toaster.undo', { _: 'Скасувати' })}
            </Button>
          )}
        </Box>
        <IconButton size="small" onClick={close} aria-label={translate('app.toaster.close', { _: 'Закрити' })} sx={{ mt: '-4px', flexShrink: 0 }}>
          <CloseIcon fontSize="small" />
        </IconButton>
      </Paper>
    </CloseNotificationContext.Provider>
  );
};

export interface ToastOptions {
  /** Second line; translated when it is a message key. */
  text?: string;
  /** Auto-hide delay in ms (default 5000). */
  duration?: number;
}

export type ToastFn = (title: string, opts?: ToastOptions) => void;

export interface ToastApi {
  success: ToastFn;
  error: ToastFn;
  warning: ToastFn;
}

/** Convenience wrapper around react-admin's `useNotify()`. */
export const useToast = (): ToastApi => {
  const notify = useNotify();
  return useMemo(() => {
    const make =
      (type: NotificationType): ToastFn =>
      (title, opts = {}) => {
        notify(title, {
          type,
          ...(opts.text !== undefined ? { messageArgs: { text: opts.text } } : {}),
          ...(opts.duration !== undefined ? { autoHideDuration: opts.duration } : {}),
        });
      };
    return { success: make('success'), error: make('error'), warning: make('warning') };
  }, [notify]);
};
