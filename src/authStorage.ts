/** Everything the SPA keeps about the session lives in localStorage under the 'auth.' prefix. */
export const AUTH_PREFIX = 'auth.';
export const TOKEN_KEY = `${AUTH_PREFIX}token`;
export const EXPIRES_KEY = `${AUTH_PREFIX}expiresAt`;
export const LOGGED_IN_KEY = `${AUTH_PREFIX}loggedIn`;
export const SELECTED_COMPLEX_KEY = 'selectedComplex';

export function readToken(storage: Storage = localStorage): string | null {
  const token = storage.getItem(TOKEN_KEY);
  const expires = Number(storage.getItem(EXPIRES_KEY) ?? 0);
  if (!token || (expires && expires <= Date.now())) return null;
  return token;
}

export function saveSession(token: string, expiresInSeconds: number, storage: Storage = localStorage) {
  storage.setItem(TOKEN_KEY, token);
  storage.setItem(EXPIRES_KEY, String(Date.now() + expiresInSeconds * 1000));
  storage.setItem(LOGGED_IN_KEY, '1');
}

export function clearSession(storage: Storage = localStorage) {
  for (const key of Object.keys(storage)) if (key.startsWith(AUTH_PREFIX)) storage.removeItem(key);
  storage.removeItem(SELECTED_COMPLEX_KEY);
}
