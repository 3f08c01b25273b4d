import { describe, expect, it } from 'vitest';
import { FULL_RULES } from '../../contract/permissions';
import { runMiddleware, UnknownMiddlewareError } from '../../src/guards';
import type { CurrentUser } from '../../src/types';

const user = (over: Partial<CurrentUser> = {}): CurrentUser => ({
  id: 1,
  name: 'Адмін',
  email: 'a@b.ua',
  phone: null,
  reset_token: null,
  tutorial_completed: true,
  rules: FULL_RULES,
  complexes: [],
  two_factor: null,
  is_admin: true,
  sms_available: true,
  ...over,
});

const both = ['auth', 'customAuth'];

describe('route middleware', () => {
  it('auth sends a signed-out visitor to /login', () => {
    expect(runMiddleware({ middleware: ['auth'], pathname: '/Complex', signedIn: false, user: undefined })).toEqual({ kind: 'redirect', to: '/login' });
  });
  it('lets a signed-in user with the permission through', () => {
    expect(runMiddleware({ middleware: both, pathname: '/Complex', signedIn: true, user: user(), area: 'complexes' })).toEqual({ kind: 'allow' });
  });
  it('waits for the user before deciding', () => {
    expect(runMiddleware({ middleware: both, pathname: '/Complex', signedIn: true, user: undefined })).toEqual({ kind: 'wait' });
  });
  it('forces a user carrying reset_token to /resetpassword from any other path', () => {
    const u = user({ reset_token: 'abc' });
    expect(runMiddleware({ middleware: both, pathname: '/Complex', signedIn: true, user: u })).toEqual({ kind: 'redirect', to: '/resetpassword' });
    expect(runMiddleware({ middleware: both, pathname: '/ResetPassword', signedIn: true, user: u })).toEqual({ kind: 'allow' });
  });
  it('denies with 403 an area the rules do not grant', () => {
    const u = user({ is_admin: false, rules: { members: ['view'] } });
    expect(runMiddleware({ middleware: both, pathname: '/Complex', signedIn: true, user: u, area: 'complexes' })).toEqual({ kind: 'deny', status: 403 });
  });
  it('an unknown middleware name is a 500 "Unknown middleware"', () => {
    expect(() => runMiddleware({ middleware: ['auth', 'nope'], pathname: '/', signedIn: true, user: user() })).toThrow(UnknownMiddlewareError);
    try {
      runMiddleware({ middleware: ['nope'], pathname: '/', signedIn: true, user: user() });
    } catch (e) {
      expect(e).toMatchObject({ status: 500, message: 'Unknown middleware' });
    }
  });
});
