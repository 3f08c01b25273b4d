import { describe, expect, it, vi } from 'vitest';
import {
  CHUNK_RELOAD_INTERVAL_MS,
  CHUNK_RELOAD_STORAGE_KEY,
  installChunkReload,
  isChunkLoadError,
  shouldReload,
  tryChunkReload,
  type StorageLike,
  type WindowLike,
} from '../../src/layout/chunkReload';

const memoryStorage = (): StorageLike & { data: Map<string, string> } => {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => {
      data.set(key, String(value));
    },
  };
};

const fakeWindow = () => {
  const target = new EventTarget();
  const reload = vi.fn();
  const win: WindowLike = {
    addEventListener: target.addEventListener.bind(target) as WindowLike['addEventListener'],
    removeEventListener: target.removeEventListener.bind(target) as WindowLike['removeEventListener'],
    location: { reload },
  };
  const preloadError = () => {
    const event = new Event('vite:preloadError', { cancelable: true });
    target.dispatchEvent(event);
    return event;
  };
  const rejection = (reason: unknown) => {
    const event = Object.assign(new Event('unhandledrejection', { cancelable: true }), { reason });
    target.dispatchEvent(event);
    return event;
  };
  return { win, reload, preloadError, rejection };
};

const T0 = 1_700_000_000_000;

describe('shouldReload', () => {
  it('allows the first reload and then at most one per 60 s', () => {
    const storage = memoryStorage();
    expect(CHUNK_RELOAD_INTERVAL_MS).toBe(60_000);
    expect(shouldReload(storage, T0)).toBe(true);
    storage.setItem(CHUNK_RELOAD_STORAGE_KEY, String(T0));
    expect(shouldReload(storage, T0)).toBe(false);
    expect(shouldReload(storage, T0 + 59_999)).toBe(false);
    expect(shouldReload(storage, T0 + 60_000)).toBe(true);
  });

  it('treats garbage or future timestamps as expired', () => {
    const storage = memoryStorage();
    storage.setItem(CHUNK_RELOAD_STORAGE_KEY, 'garbage');
    expect(shouldReload(storage, T0)).toBe(true);
    storage.setItem(CHUNK_RELOAD_STORAGE_KEY, String(T0 + 10_000));
    expect(shouldReload(storage, T0)).toBe(true);
  });

  it('refuses when the storage is missing or unreadable (no reload loops)', () => {
    expect(shouldReload(null, T0)).toBe(false);
    const broken: StorageLike = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {},
    };
    expect(shouldReload(broken, T0)).toBe(false);
  });
});

describe('isChunkLoadError', () => {
  it('recognises the browsers’ chunk-load messages', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://x/assets/a-1.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: https://x/a.js'))).toBe(true);
    expect(isChunkLoadError('Unable to preload CSS for /assets/a.css')).toBe(true);
    expect(isChunkLoadError(Object.assign(new Error('x'), { name: 'ChunkLoadError' }))).toBe(true);
  });

  it('ignores other errors', () => {
    expect(isChunkLoadError(new Error('Network Error'))).toBe(false);
    expect(isChunkLoadError(new TypeError('Failed to fetch'))).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
    expect(isChunkLoadError({ status: 500 })).toBe(false);
  });
});

describe('installChunkReload', () => {
  it('reloads on vite:preloadError at most once per 60 s', () => {
    const { win, reload, preloadError } = fakeWindow();
    const storage = memoryStorage();
    let now = T0;
    installChunkReload(win, storage, () => now);

    const first = preloadError();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(first.defaultPrevented).toBe(true);
    expect(storage.data.get(CHUNK_RELOAD_STORAGE_KEY)).toBe(String(T0));

    now = T0 + 30_000;
    const second = preloadError();
    expect(reload).toHaveBeenCalledTimes(1);
    // not handled: Vite rethrows so the error page can show
    expect(second.defaultPrevented).toBe(false);

    now = T0 + 60_000;
    preloadError();
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('reloads on an unhandled rejection that is a chunk-load failure only', () => {
    const { win, reload, rejection } = fakeWindow();
    const now = T0;
    installChunkReload(win, memoryStorage(), () => now);

    rejection(new Error('Request failed with status 500'));
    rejection('some string');
    expect(reload).not.toHaveBeenCalled();

    rejection(new TypeError('Failed to fetch dynamically imported module: /assets/Page-abc.js'));
    expect(reload).toHaveBeenCalledTimes(1);
    rejection(new TypeError('Importing a module script failed.'));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('does not reload when the timestamp cannot be stored', () => {
    const { win, reload, preloadError } = fakeWindow();
    const storage: StorageLike = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    installChunkReload(win, storage, () => T0);
    preloadError();
    expect(reload).not.toHaveBeenCalled();
  });

  it('returns an uninstall function', () => {
    const { win, reload, preloadError } = fakeWindow();
    const uninstall = installChunkReload(win, memoryStorage(), () => T0);
    uninstall();
    preloadError();
    expect(reload).not.toHaveBeenCalled();
  });

  it('tryChunkReload shares the same limit', () => {
    const { win, reload } = fakeWindow();
    const storage = memoryStorage();
    expect(tryChunkReload(win, storage, () => T0)).toBe(true);
    expect(tryChunkReload(win, storage, () => T0 + 1000)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("does not reload while the browser is offline (that would show the browser's offline page)", () => {
    const { win, reload, preloadError } = fakeWindow();
    win.navigator = { onLine: false };
    const storage = memoryStorage();
    installChunkReload(win, storage, () => T0);
    expect(preloadError().defaultPrevented).toBe(false);
    expect(tryChunkReload(win, storage, () => T0)).toBe(false);
    expect(reload).not.toHaveBeenCalled();
    win.navigator = { onLine: true };
    expect(tryChunkReload(win, storage, () => T0)).toBe(true);
  });
});
