import { matchPath } from 'react-router-dom';
import { TOKEN_PAGES } from '../contract/links';
import { page, route, type AppRoute } from './lib/routing';
import { LEGACY_PAGES, legacyPath } from './pages/legacy/legacyPages';
import { MODULES } from './resources';

export type { AppRoute, Middleware } from './lib/routing';

/** The one route table: the shell's own pages and every resource module's screens (src/resources/index.ts). */
const SCREENS: AppRoute[] = [
  route({ path: '/ForgetPassword', layout: 'auth', middleware: [], load: () => import('./pages/ForgetPasswordPage') }),
  // The same path serves the e-mailed reset link and the forced change (docs/architecture.md, "Route middleware").
  route({ path: '/ResetPassword', layout: 'auth', middleware: [], load: () => import('./pages/ResetPasswordPage') }),
  page('/', undefined, () => import('./pages/HomeRedirect')),
  page('/User', undefined, () => import('./pages/UserPage')),
  page('/Setup', undefined, () => import('./pages/SetupPage')),
  page('/dashboard/:index?', undefined, () => import('./pages/DashboardPage')),
  // A co-owner's voting page: no admin login, the meeting's link and a one-time code instead.
  route({ path: TOKEN_PAGES.vote, layout: 'chat', middleware: [], load: () => import('./pages/VotePage') }),
  // The staff chat by link: the link's token is the only credential, in the bare chat layout.
  route({ path: TOKEN_PAGES.staffChat, layout: 'chat', middleware: [], load: () => import('./pages/StaffChatPage') }),
  // Legacy area: its addresses keep working and lead to the current screens.
  page('/dashboard_old', undefined, () => import('./pages/legacy/LegacyIndex')),
  page('/dashboard_old/complex', 'complexes', () => import('./pages/legacy/LegacyComplex')),
  ...MODULES.flatMap((m) => m.routes),
];

const loadLegacyRedirect = () => import('./pages/legacy/LegacyRedirect');

/**
 * Legacy addresses that lead to a current screen: registered for every legacy page whose target
 * exists (and that has no screen of its own at the old address), guarded by the target's area.
 */
function legacyRedirects(screens: AppRoute[]): AppRoute[] {
  return LEGACY_PAGES.flatMap((p) => {
    if (!p.target || findRoute(legacyPath(p), screens)) return [];
    const target = findRoute(p.target.replace(/:\w+/g, '1'), screens);
    return target ? [page(legacyPath(p), target.area, loadLegacyRedirect)] : [];
  });
}

export const ROUTES: AppRoute[] = [...SCREENS, ...legacyRedirects(SCREENS)];

/** The route that serves a path (as the router matches: case-insensitively, params and optional segments). */
export function findRoute(path: string, routes: AppRoute[] = ROUTES): AppRoute | undefined {
  return routes.find((r) => matchPath({ path: r.path, caseSensitive: false, end: true }, path));
}

/** Whether a screen exists for a path, for menu items. */
export function hasRoute(path: string, routes: AppRoute[] = ROUTES): boolean {
  return findRoute(path, routes) !== undefined;
}
