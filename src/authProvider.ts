import { HttpError, type AuthProvider } from 'react-admin';
import { canAccess, type Area } from '../contract/permissions';
import { RESOURCES } from '../contract/resources';
import { clearSession, readToken, saveSession } from './authStorage';
import { apiFetch } from './dataProvider/http';
import type { CurrentUser } from './types';

export const AFTER_LOGIN_PATH = '/dashboard_old/complex';
export const LOGIN_PATH = '/login';

interface TokenAnswer {
  access_token: string;
  expires_in: number;
}

/** What POST /login answers when the user signs in with a second factor. */
export interface TwoFactorStep {
  two_factor: 'phone' | 'email';
  challenge: string;
  message: string;
  sent_to: string;
  resend_after: number;
  expires_in: number;
}

/** Thrown by login() when a code is needed: the login page shows the code step. */
export class TwoFactorRequired extends Error {
  constructor(readonly step: TwoFactorStep) {
    super(step.message);
  }
}

/** react-admin resource or permission area → the area whose rules apply. */
async function areaOf(resource: string): Promise<Area | undefined> {
  const decl = (RESOURCES as Record<string, { area: Area }>)[resource] ?? (await import('../contract/entities')).findEntity(resource);
  return decl?.area ?? (resource as Area);
}

/**
 * Bearer-token auth against /api/admin. `GET /user` is fetched once per token and shared by
 * getIdentity, getPermissions and canAccess (react-admin calls them often).
 */
export function createAuthProvider(fetchImpl: typeof fetch = (...args) => fetch(...args)): AuthProvider & {
  getUser(): Promise<CurrentUser>;
  refreshUser(): Promise<CurrentUser>;
} {
  let cached: { token: string; user: Promise<CurrentUser> } | undefined;

  const getUser = (): Promise<CurrentUser> => {
    const token = readToken();
    // A 401 like the API's: react-query does not try again (src/dataProvider/retry.ts), so a signed-out
    // page that asks who is signed in (the reset link's page) does not run the loading bar for seconds.
    if (!token) return Promise.reject(new HttpError('not signed in', 401));
    if (cached?.token !== token) {
      const user = apiFetch<{ data: CurrentUser }>('/user', {}, fetchImpl).then((r) => r.data);
      cached = { token, user };
      user.catch(() => {
        if (cached?.user === user) cached = undefined;
      });
    }
    return cached.user;
  };

  return {
    async login(params: { username?: string; email?: string; password: string } | { challenge: string; code: string }) {
      const res =
        'challenge' in params
          ? await apiFetch<TokenAnswer>('/login/code', { method: 'POST', body: params }, fetchImpl)
          : await apiFetch<TokenAnswer | TwoFactorStep>(
              '/login',
              { method: 'POST', body: { email: params.email ?? params.username, password: params.password } },
              fetchImpl,
            );
      if (!('access_token' in res)) throw new TwoFactorRequired(res);
      cached = undefined;
      saveSession(res.access_token, res.expires_in);
      return { redirectTo: AFTER_LOGIN_PATH };
    },
    async logout() {
      if (readToken()) await apiFetch('/logout', { method: 'POST' }, fetchImpl).catch(() => undefined);
      cached = undefined;
      clearSession();
      return LOGIN_PATH;
    },
    async checkAuth() {
      if (!readToken()) throw { redirectTo: LOGIN_PATH, message: false };
    },
    async checkError(error: { status?: number }) {
      if (error?.status === 401) {
        cached = undefined;
        clearSession();
        throw { redirectTo: LOGIN_PATH, message: 'app.auth.session_expired' };
      }
    },
    async getIdentity() {
      const user = await getUser();
      return { ...user, fullName: user.name };
    },
    async getPermissions() {
      if (!readToken()) return {};
      return (await getUser()).rules;
    },
    async canAccess({ resource, action }) {
      if (!readToken()) return false;
      const area = await areaOf(resource);
      if (!area) return false;
      const mapped = action === 'list' || action === 'show' ? 'view' : action;
      return canAccess((await getUser()).rules, area, mapped as 'view');
    },
    getUser,
    async refreshUser() {
      cached = undefined;
      return getUser();
    },
  };
}

export const authProvider = createAuthProvider();
