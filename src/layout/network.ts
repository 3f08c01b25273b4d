import { createElement, useSyncExternalStore } from 'react';
import Box from '@mui/material/Box';
import WifiOffIcon from '@mui/icons-material/WifiOff';
import { useTranslate } from 'react-admin';

/** The parts of `navigator` the prefetch rule looks at. */
export interface NavigatorLike {
  onLine?: boolean;
  connection?: {
    effectiveType?: string;
    saveData?: boolean;
  } | null;
}

const SLOW_CONNECTIONS = new Set(['slow-2g', '2g']);

/**
 * Whether speculative prefetching (of routes, chunks, data) is worth it:
 * not when offline, on a 2g / slow-2g connection, or with Data Saver on.
 */
export const prefetchAllowed = (nav: NavigatorLike | undefined = typeof navigator === 'undefined' ? undefined : (navigator as NavigatorLike)): boolean => {
  if (!nav) return false;
  if (nav.onLine === false) return false;
  const connection = nav.connection;
  if (connection) {
    if (connection.saveData === true) return false;
    if (connection.effectiveType && SLOW_CONNECTIONS.has(connection.effectiveType)) return false;
  }
  return true;
};

const subscribe = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};

const getSnapshot = () => (typeof navigator === 'undefined' ? true : navigator.onLine !== false);
const getServerSnapshot = () => true;

/** `navigator.onLine`, updated on the window's online/offline events. */
export const useOnlineStatus = (): boolean => useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);

/** Small fixed banner at the bottom while the browser is offline. */
export const OfflineNotice = () => {
  const online = useOnlineStatus();
  const translate = useTranslate();
  if (online) return null;
  return createElement(
    Box,
    {
      role: 'status',
      sx: {
        position: 'fixed',
        bottom: 16,
        left: '50%',
        transform: 'translateX(-50%)',
        zIndex: 1400, // MUI zIndex.snackbar
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'grey.900',
        color: 'common.white',
        boxShadow: 3,
        fontSize: 14,
        maxWidth: 'calc(100vw - 32px)',
      },
    },
    createElement(WifiOffIcon, { fontSize: 'small', 'aria-hidden': true }),
    translate('app.network.offline', { _: "Немає з'єднання з інтернетом" }),
  );
};
