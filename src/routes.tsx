import { findRoute as findIn, page, route, type AppRoute } from './lib/routing';
import { APP_MODULES } from './modules';
import { LEGACY_PAGES, legacyPath } from './pages/legacy/legacyPages';

export type { AppRoute, Middleware } from './lib/routing';

/** The one route table: the shell's own pages and every module's screens (src/modules.ts). */
const SCREENS: AppRoute[] = [
  route({ path: '/ForgetPassword', layout: 'auth', middleware: [], load: () => import('./pages/ForgetPasswordPage') }),
  // The same path serves the e-mailed reset link and the forced change (docs/architecture.md, "Route middleware").
  route({ path: '/ResetPassword', layout: 'auth', middleware: [], load: () => import('./pages/ResetPasswordPage') }),
  // Home, and where sign-in lands: where the person's work is (src/pages/landing.ts).
  page('/', undefined, () => import('./pages/Landing')),
  // Legacy area: its addresses keep working and lead to the current screens.
  page('/dashboard_old', undefined, () => import('./pages/legacy/LegacyIndex')),
  page('/dashboard_old/complex', undefined, () => import('./pages/Landing')),
  ...APP_MODULES.flatMap((m) => m.routes),
];

const loadLegacyRedirect = () => import('./pages/legacy/LegacyRedirect');

/**
 * Legacy addresses that lead to a current screen: registered for every legacy page whose target
 * exists (and that has no screen of its own at the old address), guarded by the target's area.
 */
function legacyRedirects(screens: AppRoute[]): AppRoute[] {
  return LEGACY_PAGES.flatMap((p) => {
    if (!p.target || findIn(legacyPath(p), screens)) return [];
    const target = findIn(p.target.replace(/:\w+/g, '1'), screens);
    return target ? [page(legacyPath(p), target.area, loadLegacyRedirect)] : [];
  });
}

export const ROUTES: AppRoute[] = [...SCREENS, ...legacyRedirects(SCREENS)];

/** The route that serves a path (as the router matches: case-insensitively, params and optional segments). */
export const findRoute = (path: string, routes: AppRoute[] = ROUTES): AppRoute | undefined => findIn(path, routes);

/** Whether a screen exists for a path. */
export const hasRoute = (path: string, routes: AppRoute[] = ROUTES): boolean => findRoute(path, routes) !== undefined;
