import { memoryStore, type Store } from 'react-admin';

/**
 * Keys of react-admin's store under this prefix are a user's choices of how screens look (the
 * columns of a list): they are kept in localStorage, so a reload and the next sign-in keep them,
 * and each key names its user (`preferencesKey`). Everything else stays in memory and goes with
 * the sign-out (docs/decisions.md, "Messages and language").
 */
export const PREFERENCES_PREFIX = 'preferences.';
const STORAGE_PREFIX = 'RaStore.';

/** The store key of one user's choice, e.g. `preferences.7.service-requests.columns`. */
export const preferencesKey = (userId: number | string, name: string) => `${PREFERENCES_PREFIX}${userId}.${name}`;

function browserStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** react-admin's store: memory, with the preferences in `storage` (localStorage). */
export function appStore(initial: Record<string, unknown> = {}, storage: Storage | undefined = browserStorage()): Store {
  const memory = memoryStore(initial);
  const listeners = new Map<string, Set<(value: unknown) => void>>();
  const persisted = (key: string) => !!storage && key.startsWith(PREFERENCES_PREFIX);
  const publish = (key: string, value: unknown) => listeners.get(key)?.forEach((listener) => listener(value));
  const read = (key: string): unknown => {
    try {
      const raw = storage!.getItem(STORAGE_PREFIX + key);
      return raw === null ? undefined : (JSON.parse(raw) as unknown);
    } catch {
      return undefined;
    }
  };
  const remove = (key: string) => {
    storage!.removeItem(STORAGE_PREFIX + key);
    publish(key, undefined);
  };
  const storedKeys = (prefix: string) => {
    const keys: string[] = [];
    for (let i = 0; i < storage!.length; i++) {
      const key = storage!.key(i);
      if (key?.startsWith(STORAGE_PREFIX + prefix)) keys.push(key.slice(STORAGE_PREFIX.length));
    }
    return keys;
  };
  return {
    setup: () => memory.setup(),
    teardown: () => memory.teardown(),
    getItem<T>(key: string, defaultValue?: T): T | undefined {
      if (!persisted(key)) return memory.getItem(key, defaultValue);
      const value = read(key);
      return value === undefined ? defaultValue : (value as T);
    },
    setItem<T>(key: string, value: T) {
      if (!persisted(key)) return memory.setItem(key, value);
      try {
        storage!.setItem(STORAGE_PREFIX + key, JSON.stringify(value));
      } catch {
        // A full or refused storage: the choice lasts until the page is left.
      }
      publish(key, value);
    },
    removeItem(key: string) {
      if (persisted(key)) remove(key);
      else memory.removeItem(key);
    },
    removeItems(prefix: string) {
      memory.removeItems(prefix);
      if (storage) storedKeys(prefix).filter(persisted).forEach(remove);
    },
    /** Signing out resets the session's state; the preferences stay with their user. */
    reset: () => memory.reset(),
    subscribe(key: string, callback: (value: unknown) => void) {
      if (!persisted(key)) return memory.subscribe(key, callback);
      const set = listeners.get(key) ?? new Set();
      listeners.set(key, set.add(callback));
      return () => void set.delete(callback);
    },
    listItems(prefix?: string) {
      const out: Record<string, unknown> = { ...memory.listItems?.(prefix) };
      if (storage) for (const key of storedKeys(prefix ?? '').filter(persisted)) out[key] = read(key);
      return out;
    },
  };
}
