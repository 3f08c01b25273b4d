import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuthProvider, TwoFactorRequired } from '../../src/authProvider';
import { retryRead } from '../../src/dataProvider/retry';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const user = {
  id: 1,
  name: 'Адмін',
  email: 'a@b.ua',
  phone: null,
  reset_token: null,
  tutorial_completed: true,
  rules: { complexes: ['view'], members: ['view', 'edit'] },
  complexes: [],
  two_factor: null,
  is_admin: false,
};

describe('authProvider', () => {
  beforeEach(() => localStorage.clear());

  it('login stores the token under auth.* keys and redirects to /dashboard_old/complex', async () => {
    const f = vi.fn(async () => json(200, { access_token: 'T1', token_type: 'bearer', expires_in: 3600 }));
    const ap = createAuthProvider(f as unknown as typeof fetch);
    await expect(ap.login({ email: 'a@b.ua', password: 'x' })).resolves.toEqual({ redirectTo: '/dashboard_old/complex' });
    expect(localStorage.getItem('auth.token')).toBe('T1');
    expect(localStorage.getItem('auth.loggedIn')).toBe('1');
    expect(Number(localStorage.getItem('auth.expiresAt'))).toBeGreaterThan(Date.now());
  });

  it('signed out, who is signed in is a final answer (401), not a failure to try again for seconds', async () => {
    const f = vi.fn();
    const ap = createAuthProvider(f as unknown as typeof fetch);
    const error = await ap.getIdentity!().catch((e: unknown) => e);
    expect((error as { status: number }).status).toBe(401);
    expect(retryRead(0, error)).toBe(false);
    expect(f).not.toHaveBeenCalled();
  });

  it('with two factors: the password step throws the challenge, the code step stores the token', async () => {
    const step = { two_factor: 'email', challenge: 'C'.repeat(43), message: 'Код надіслано', sent_to: 'a***@b.ua', resend_after: 60, expires_in: 600 };
    const f = vi.fn(async (url: string) =>
      String(url).endsWith('/login') ? json(200, step) : json(200, { access_token: 'T2', token_type: 'bearer', expires_in: 3600 }),
    );
    const ap = createAuthProvider(f as unknown as typeof fetch);
    const first = await ap.login({ email: 'a@b.ua', password: 'x' }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(TwoFactorRequired);
    expect((first as TwoFactorRequired).step).toEqual(step);
    expect(localStorage.getItem('auth.token')).toBeNull();
    await expect(ap.login({ challenge: step.challenge, code: '123456' })).resolves.toEqual({ redirectTo: '/dashboard_old/complex' });
    const [url, init] = f.mock.calls[1] as unknown as [string, RequestInit];
    expect(url).toBe('/api/admin/login/code');
    expect(JSON.parse(String(init.body))).toEqual({ challenge: step.challenge, code: '123456' });
    expect(localStorage.getItem('auth.token')).toBe('T2');
  });

  it('logout calls the API, clears auth.* and selectedComplex, and goes to /login', async () => {
    localStorage.setItem('auth.token', 'T1');
    localStorage.setItem('selectedComplex', '3');
    localStorage.setItem('other', 'kept');
    const f = vi.fn(async () => json(200, { message: 'ok' }));
    const ap = createAuthProvider(f as unknown as typeof fetch);
    await expect(ap.logout({})).resolves.toBe('/login');
    expect(String((f.mock.calls[0] as unknown[])[0])).toBe('/api/admin/logout');
    expect(Object.keys(localStorage).sort()).toEqual(['other']);
  });

  it('checkAuth rejects without a token; checkError logs out on 401 only', async () => {
    const ap = createAuthProvider(vi.fn() as unknown as typeof fetch);
    await expect(ap.checkAuth({})).rejects.toMatchObject({ redirectTo: '/login' });
    localStorage.setItem('auth.token', 'T1');
    await expect(ap.checkAuth({})).resolves.toBeUndefined();
    await expect(ap.checkError({ status: 403 })).resolves.toBeUndefined();
    await expect(ap.checkError({ status: 401 })).rejects.toBeTruthy();
    expect(localStorage.getItem('auth.token')).toBeNull();
  });

  it('fetches GET /user once per token for identity, permissions and access checks', async () => {
    localStorage.setItem('auth.token', 'T1');
    const f = vi.fn(async () => json(200, { data: user }));
    const ap = createAuthProvider(f as unknown as typeof fetch);
    expect(await ap.getIdentity!()).toMatchObject({ id: 1, fullName: 'Адмін' });
    expect(Object.keys(await ap.getPermissions!({}))[0]).toBe('complexes');
    expect(await ap.canAccess!({ resource: 'complexes', action: 'list' })).toBe(true);
    expect(await ap.canAccess!({ resource: 'complexes', action: 'delete' })).toBe(false);
    expect(await ap.canAccess!({ resource: 'members', action: 'edit' })).toBe(true);
    expect(f).toHaveBeenCalledTimes(1);
  });
});
