import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { canAccess, type Area } from '../contract/permissions';
import { readToken } from './authStorage';
import { ErrorPage } from './layout/ErrorPage';
import { useCurrentUser } from './useCurrentUser';
import type { CurrentUser } from './types';

export const FORCED_RESET_PATH = '/resetpassword';

export type GuardResult = { kind: 'allow' } | { kind: 'redirect'; to: string } | { kind: 'deny'; status: number } | { kind: 'wait' };

export class UnknownMiddlewareError extends Error {
  status = 500;
  constructor() {
    super('Unknown middleware');
  }
}

interface GuardInput {
  middleware: string[];
  pathname: string;
  signedIn: boolean;
  user: CurrentUser | undefined;
  area?: Area;
}

/**
 * The route middleware (docs/architecture.md, "Route middleware"), as a pure function:
 * `auth` — signed in, else to /login; `customAuth` — a user carrying reset_token goes to
 * /resetpassword from any other path, and the page's area must be allowed by the user's rules.
 */
export function runMiddleware({ middleware, pathname, signedIn, user, area }: GuardInput): GuardResult {
  for (const name of middleware) {
    if (name === 'auth') {
      if (!signedIn) return { kind: 'redirect', to: '/login' };
    } else if (name === 'customAuth') {
      if (!signedIn) return { kind: 'redirect', to: '/login' };
      if (!user) return { kind: 'wait' };
      if (user.reset_token && pathname.toLowerCase() !== FORCED_RESET_PATH) return { kind: 'redirect', to: FORCED_RESET_PATH };
      if (area && !canAccess(user.rules, area)) return { kind: 'deny', status: 403 };
    } else {
      throw new UnknownMiddlewareError();
    }
  }
  return { kind: 'allow' };
}

export function RouteGuard({ middleware, area, children }: { middleware: string[]; area?: Area; children: ReactNode }) {
  const location = useLocation();
  const signedIn = Boolean(readToken());
  const { user } = useCurrentUser();
  const result = runMiddleware({ middleware, pathname: location.pathname, signedIn, user, area });
  switch (result.kind) {
    case 'allow':
      return <>{children}</>;
    case 'wait':
      return null;
    case 'redirect':
      return <Navigate to={result.to} replace state={{ nextPathname: location.pathname + location.search }} />;
    case 'deny':
      return <ErrorPage status={result.status} message="" />;
  }
}
