/**
 * Reload the page when a lazily loaded chunk cannot be fetched — typically
 * after a deploy replaced the hashed assets the open tab still refers to.
 * At most one reload per CHUNK_RELOAD_INTERVAL_MS, so a really broken chunk
 * cannot put the tab into a reload loop.
 */

export const CHUNK_RELOAD_INTERVAL_MS = 60_000;
export const CHUNK_RELOAD_STORAGE_KEY = 'app.chunkReloadAt';

export type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;
export type Now = () => number;

export interface WindowLike {
  addEventListener: Window['addEventListener'];
  removeEventListener: Window['removeEventListener'];
  location: { reload: () => void };
  /** When the browser knows it is offline a reload would only show its own offline page. */
  navigator?: { onLine: boolean };
}

/** Whether the browser says it is offline (unknown counts as online). */
export const isOffline = (win: Pick<WindowLike, 'navigator'> | null = defaultWindow()): boolean => win?.navigator?.onLine === false;

const CHUNK_ERROR_PATTERNS = [
  /failed to fetch dynamically imported module/i, // Chromium
  /importing a module script failed/i, // Safari
  /error loading dynamically imported module/i, // Firefox
  /unable to preload css/i, // Vite CSS preload
  /loading (css )?chunk [\w-]+ failed/i, // webpack-style chunks
];

/** Whether `error` (an Error, a string or anything) is a chunk-load failure. */
export const isChunkLoadError = (error: unknown): boolean => {
  if (error == null) return false;
  if (typeof error === 'object' && (error as { name?: unknown }).name === 'ChunkLoadError') {
    return true;
  }
  const message =
    typeof error === 'string' ? error : typeof (error as { message?: unknown }).message === 'string' ? (error as { message: string }).message : '';
  return CHUNK_ERROR_PATTERNS.some((re) => re.test(message));
};

/**
 * Pure helper: may we reload now? True when no reload was recorded or the
 * last one is at least CHUNK_RELOAD_INTERVAL_MS old. When the storage cannot
 * be read we say no (better an error page than a reload loop).
 */
export const shouldReload = (storage: StorageLike | null | undefined, now: number): boolean => {
  if (!storage) return false;
  let raw: string | null;
  try {
    raw = storage.getItem(CHUNK_RELOAD_STORAGE_KEY);
  } catch {
    return false;
  }
  if (raw === null) return true;
  const last = Number(raw);
  if (!Number.isFinite(last)) return true;
  // A timestamp from the future (clock change): treat as expired.
  if (last > now) return true;
  return now - last >= CHUNK_RELOAD_INTERVAL_MS;
};

const defaultStorage = (): StorageLike | null => {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
};

const defaultWindow = (): WindowLike | null => (typeof window === 'undefined' ? null : window);

/**
 * Reload once if allowed: records the time, then calls `location.reload()`.
 * Returns whether a reload was triggered.
 */
export const tryChunkReload = (win: WindowLike | null = defaultWindow(), storage: StorageLike | null = defaultStorage(), now: Now = Date.now): boolean => {
  if (!win) return false;
  // Offline, the chunk is missing for want of a network, not because of a deploy: the error page
  // says so and offers to try again, instead of the browser's offline page.
  if (isOffline(win)) return false;
  const at = now();
  if (!shouldReload(storage, at)) return false;
  try {
    storage!.setItem(CHUNK_RELOAD_STORAGE_KEY, String(at));
  } catch {
    // Without a stored timestamp we could loop: do not reload.
    return false;
  }
  win.location.reload();
  return true;
};

/**
 * Install the listeners (call once, in main.tsx). Returns an uninstall
 * function.
 *
 * - `vite:preloadError`: fired by Vite's preload helper when a dynamic
 *   import (or its CSS) fails. When we reload we call preventDefault() so
 *   Vite does not rethrow; otherwise the error propagates to the error page.
 * - `unhandledrejection` whose reason looks like a chunk-load failure.
 */
export const installChunkReload = (
  win: WindowLike | null = defaultWindow(),
  storage: StorageLike | null = defaultStorage(),
  now: Now = Date.now,
): (() => void) => {
  if (!win) return () => {};

  const onPreloadError = (event: Event) => {
    if (tryChunkReload(win, storage, now)) event.preventDefault();
  };
  const onRejection = (event: Event) => {
    const reason = (event as PromiseRejectionEvent).reason;
    if (isChunkLoadError(reason)) tryChunkReload(win, storage, now);
  };

  win.addEventListener('vite:preloadError', onPreloadError);
  win.addEventListener('unhandledrejection', onRejection);
  return () => {
    win.removeEventListener('vite:preloadError', onPreloadError);
    win.removeEventListener('unhandledrejection', onRejection);
  };
};
