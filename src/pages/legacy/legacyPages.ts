/**
 * The legacy area's pages (/dashboard_old/...; docs/architecture.md, "Legacy area") and where
 * each leads now. `target` is a current route (`:id` carried over); `own` pages are screens of their own at the legacy path.
 * A redirect is registered only while its target screen exists, so pages whose screens come
 * with other features start working as those screens arrive.
 */
export interface LegacyPage {
  /** Path under /dashboard_old, as docs/architecture.md, "Legacy area", writes it. */
  path: string;
  /** i18n key of its name on the legacy list page. */
  label: string;
  /** The current screen; absent for pages that are screens of their own. */
  target?: string;
}

export const LEGACY_PAGES: LegacyPage[] = [
  { path: 'AddNews', label: 'app.legacy.pages.add_news', target: '/News/create' },
  { path: 'Ads', label: 'app.legacy.pages.ads', target: '/Advertisements' },
  { path: 'Complex', label: 'app.legacy.pages.complex', target: '/Complex' },
  { path: 'Complex-contacts', label: 'app.legacy.pages.complex_contacts', target: '/Contacts' },
  { path: 'Disconts', label: 'app.legacy.pages.discounts' },
  { path: 'Interview', label: 'app.legacy.pages.interview', target: '/Interview' },
  { path: 'News-advices', label: 'app.legacy.pages.news_advices', target: '/News' },
  { path: 'Notice', label: 'app.legacy.pages.notice', target: '/Announcements' },
  { path: 'Occupant', label: 'app.legacy.pages.occupant', target: '/Members' },
  { path: 'Occupant-role', label: 'app.legacy.pages.occupant_role', target: '/Members/roles' },
  { path: 'Security-cameras', label: 'app.legacy.pages.cameras' },
  { path: 'Staff', label: 'app.legacy.pages.staff', target: '/Staff' },
  { path: 'Staff-role', label: 'app.legacy.pages.staff_role', target: '/Roles-departments' },
  { path: 'User-requests', label: 'app.legacy.pages.user_requests', target: '/Requests' },
  { path: 'Users', label: 'app.legacy.pages.users', target: '/Staff' },
  { path: 'Users-role', label: 'app.legacy.pages.users_role', target: '/Roles-departments' },
  { path: 'voting', label: 'app.legacy.pages.voting', target: '/Voting' },
  { path: 'voting/:id', label: 'app.legacy.pages.voting', target: '/Voting/:id' },
];

export const legacyPath = (page: LegacyPage) => `/dashboard_old/${page.path}`;

/** The current address for a legacy one: '/dashboard_old/voting/7' → '/Voting/7'. */
export function legacyTarget(page: LegacyPage, params: Record<string, string | undefined>): string | undefined {
  return page.target?.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
}
